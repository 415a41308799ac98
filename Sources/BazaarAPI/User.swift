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

    /// Creates a user value.
    public init(
        id: String, username: String, displayName: String, bio: String?, photoURL: String?,
        createdAt: Date
    ) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.bio = bio
        self.photoURL = photoURL
        self.createdAt = createdAt
    }

    /// Encodes every field, writing `null` for a missing bio or photo (the contract lists them).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(username, forKey: .username)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(bio, forKey: .bio)
        try container.encode(photoURL, forKey: .photoURL)
        try container.encode(createdAt, forKey: .createdAt)
    }
}
