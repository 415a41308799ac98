import Foundation

/// The body of `POST /v1/auth/register`.
public struct RegisterRequest: Codable, Sendable, Equatable {
    /// 3-32 characters of `a-z`, `0-9`, `_` and `.`.
    public var username: String
    /// At least 8 characters (at most 128).
    public var password: String
    /// 1-64 characters shown to other people.
    public var displayName: String

    /// Creates a register request.
    public init(username: String, password: String, displayName: String) {
        self.username = username
        self.password = password
        self.displayName = displayName
    }
}

/// The body of `POST /v1/auth/login`.
public struct LoginRequest: Codable, Sendable, Equatable {
    /// The account's username.
    public var username: String
    /// The account's password.
    public var password: String

    /// Creates a login request.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// The body of `POST /v1/auth/refresh`.
public struct RefreshRequest: Codable, Sendable, Equatable {
    /// The refresh token from the latest sign-in or refresh.
    public var refreshToken: String

    /// Creates a refresh request.
    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}

extension RegisterRequest: RedactedDescriptions {
    /// The fields, with the secrets as ``RedactedSecret``.
    public var redactedFields: KeyValuePairs<String, Any> {
        [
            "username": username,
            "password": RedactedSecret.value,
            "displayName": displayName,
        ]
    }
}

extension LoginRequest: RedactedDescriptions {
    /// The fields, with the secrets as ``RedactedSecret``.
    public var redactedFields: KeyValuePairs<String, Any> {
        [
            "username": username,
            "password": RedactedSecret.value,
        ]
    }
}

extension RefreshRequest: RedactedDescriptions {
    /// The fields, with the secrets as ``RedactedSecret``.
    public var redactedFields: KeyValuePairs<String, Any> {
        [
            "refreshToken": RedactedSecret.value
        ]
    }
}
