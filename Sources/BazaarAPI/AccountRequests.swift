import Foundation

/// The body of `PUT /v1/users/me/password`.
public struct ChangePasswordRequest: Codable, Sendable, Equatable {
    /// The password now (a wrong one is `403 wrong_password` and counts toward the sign-in throttle).
    public var currentPassword: String
    /// The new one: 8-128 characters.
    public var newPassword: String

    /// Makes a password change.
    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}

/// The body of `DELETE /v1/users/me`: the password, asked again before anything is erased.
public struct DeleteAccountRequest: Codable, Sendable, Equatable {
    /// The account's password.
    public var password: String

    /// Makes a deletion request.
    public init(password: String) {
        self.password = password
    }
}

/// One signed-in session of the caller (a device or browser), as `GET /v1/users/me/sessions` lists it.
public struct AccountSession: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier (what `DELETE /v1/users/me/sessions/{id}` takes).
    public var id: String
    /// When it signed in.
    public var createdAt: Date
    /// When it last refreshed its tokens (or signed in).
    public var lastUsedAt: Date
    /// The `User-Agent` it signed in with (at most 200 characters), or `nil`.
    public var userAgent: String?
    /// Whether it is the session of the request that asks.
    public var current: Bool

    /// Creates a session value.
    public init(id: String, createdAt: Date, lastUsedAt: Date, userAgent: String?, current: Bool) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.userAgent = userAgent
        self.current = current
    }

    /// Encodes every field, writing `null` for a missing user agent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(userAgent, forKey: .userAgent)
        try container.encode(current, forKey: .current)
    }
}

/// The answer of `GET /v1/users/me/sessions`: every session still signed in, newest first.
public struct AccountSessions: Codable, Sendable, Equatable {
    /// The sessions.
    public var items: [AccountSession]

    /// Creates the list.
    public init(items: [AccountSession]) {
        self.items = items
    }
}

extension ChangePasswordRequest: RedactedDescriptions {
    /// The fields, with the secrets as ``RedactedSecret``.
    public var redactedFields: KeyValuePairs<String, Any> {
        [
            "currentPassword": RedactedSecret.value,
            "newPassword": RedactedSecret.value,
        ]
    }
}

extension DeleteAccountRequest: RedactedDescriptions {
    /// The fields, with the secrets as ``RedactedSecret``.
    public var redactedFields: KeyValuePairs<String, Any> {
        [
            "password": RedactedSecret.value
        ]
    }
}
