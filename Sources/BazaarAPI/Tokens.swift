import Foundation

/// The credentials a sign-in or a refresh hands out.
public struct Tokens: Codable, Sendable, Equatable, Hashable {
    /// The short-lived signed access token, sent as `Authorization: Bearer <token>`.
    public var accessToken: String
    /// The opaque refresh token; it works once, and each refresh returns a new one.
    public var refreshToken: String
    /// When the access token stops working.
    public var expiresAt: Date
    /// Always `Bearer`.
    public var tokenType: String

    /// Creates a tokens value.
    public init(accessToken: String, refreshToken: String, expiresAt: Date, tokenType: String = "Bearer") {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.tokenType = tokenType
    }
}

/// The answer to register and login: the user and their new tokens.
public struct AuthResponse: Codable, Sendable, Equatable {
    /// The signed-in user.
    public var user: User
    /// The user's new tokens.
    public var tokens: Tokens

    /// Creates an auth response.
    public init(user: User, tokens: Tokens) {
        self.user = user
        self.tokens = tokens
    }
}

extension Tokens: RedactedDescriptions {
    /// The fields, with the secrets as ``RedactedSecret``.
    public var redactedFields: KeyValuePairs<String, Any> {
        [
            "accessToken": RedactedSecret.value,
            "refreshToken": RedactedSecret.value,
            "expiresAt": expiresAt,
            "tokenType": tokenType,
        ]
    }
}
