import Foundation

/// A person on Bazaar, as every endpoint shows them (also their public profile).
public struct User: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier.
    public var id: String
    /// Unique login name: 3-32 characters of `a-z`, `0-9`, `_` and `.`.
    public var username: String
    /// The name shown to other people.
    public var displayName: String
    /// A short text about the person, or `nil` when they wrote none.
    public var bio: String?
    /// Where the profile photo is served, relative to the server's base URL, or `nil` without one.
    ///
    /// The URL changes whenever the photo changes, so clients may cache it for long.
    public var photoURL: String?
    /// When the account was created.
    public var createdAt: Date
    /// The mean of the ratings others gave them after a sale (1-5), or `nil` before the first.
    public var ratingAverage: Double?
    /// How many reviews they received.
    public var ratingCount: Int
    /// What they may do: given only to the user themselves (`GET /v1/users/me`); `nil` (and left
    /// out of the JSON) on everyone else's profile.
    public var role: UserRole?

    /// Creates a user value (without reviews unless given).
    public init(
        id: String, username: String, displayName: String, bio: String?, photoURL: String?,
        createdAt: Date, ratingAverage: Double? = nil, ratingCount: Int = 0, role: UserRole? = nil
    ) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.bio = bio
        self.photoURL = photoURL
        self.createdAt = createdAt
        self.ratingAverage = ratingAverage
        self.ratingCount = ratingCount
        self.role = role
    }

    private enum CodingKeys: String, CodingKey {
        case id, username, displayName, bio, photoURL, createdAt, ratingAverage, ratingCount, role
    }

    /// Decodes a user; without rating fields (from a server before reviews) they have none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        username = try container.decode(String.self, forKey: .username)
        displayName = try container.decode(String.self, forKey: .displayName)
        bio = try container.decodeIfPresent(String.self, forKey: .bio)
        photoURL = try container.decodeIfPresent(String.self, forKey: .photoURL)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        ratingAverage = try container.decodeIfPresent(Double.self, forKey: .ratingAverage)
        ratingCount = try container.decodeIfPresent(Int.self, forKey: .ratingCount) ?? 0
        role = try container.decodeIfPresent(UserRole.self, forKey: .role)
    }

    /// How a deleted account appears wherever others still see it (a conversation, a review):
    /// the same id, and nothing of the person.
    public static func deleted(id: String, createdAt: Date) -> User {
        User(
            id: id, username: deletedUsername, displayName: deletedDisplayName, bio: nil, photoURL: nil,
            createdAt: createdAt)
    }

    /// The username a deleted account shows (no account can register it: names have 3-32 characters
    /// and it is reserved).
    public static let deletedUsername = "deleted"
    /// The name a deleted account shows.
    public static let deletedDisplayName = "Deleted user"

    /// Whether this is how a deleted account appears.
    public var isDeleted: Bool { username == Self.deletedUsername && displayName == Self.deletedDisplayName }

    /// The mean of `count` ratings summing to `sum`, to two decimals; `nil` for none.
    public static func ratingAverage(sum: Int, count: Int) -> Double? {
        guard count > 0 else { return nil }
        return (Double(sum) / Double(count) * 100).rounded() / 100
    }

    /// Encodes every field, writing `null` for a missing bio or photo (the contract lists them);
    /// `role` only when set (the caller's own profile).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(username, forKey: .username)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(bio, forKey: .bio)
        try container.encode(photoURL, forKey: .photoURL)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(ratingAverage, forKey: .ratingAverage)
        try container.encode(ratingCount, forKey: .ratingCount)
        try container.encodeIfPresent(role, forKey: .role)
    }
}
