extension BazaarStore {
    /// The user with this id while their account exists: `nil` for a deleted account as for an
    /// unknown id (a deleted account has no profile; it shows only where others still see it).
    public func existingUser(id: String) async throws -> UserRecord? {
        try await user(id: id).flatMap { $0.deletedAt == nil ? $0 : nil }
    }

    /// The user with this username while their account exists (a deleted account's name stays
    /// taken, but signs no one in).
    public func existingUser(username: String) async throws -> UserRecord? {
        try await user(username: username).flatMap { $0.deletedAt == nil ? $0 : nil }
    }
}
