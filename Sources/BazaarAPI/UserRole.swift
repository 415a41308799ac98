/// What a user may do beyond what every member does. Only the operator names moderators
/// (`bazaar-server moderators add USERNAME`); nobody can make themselves one through the API.
public enum UserRole: String, Codable, Sendable, Hashable, CaseIterable {
    /// Everyone.
    case member
    /// May read the report queue and act on reports.
    case moderator
}
