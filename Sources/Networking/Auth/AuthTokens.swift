import Foundation

/// The tokens of a signed-in session: a short-lived access token and a refresh token that renews it.
///
/// `description` never shows the tokens themselves, so printing or logging a value is safe.
public struct AuthTokens: Sendable, Codable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Sent as `Authorization: Bearer …` on authenticated requests.
    public var accessToken: String
    /// Exchanged for new tokens when the access token expires; rotates on every use.
    public var refreshToken: String
    /// When the access token stops being accepted.
    public var expiresAt: Date
    /// The authorization scheme, `Bearer`.
    public var tokenType: String

    /// Makes tokens.
    public init(accessToken: String, refreshToken: String, expiresAt: Date, tokenType: String = "Bearer") {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.tokenType = tokenType
    }

    /// The `Authorization` header value.
    public var authorizationValue: String { "\(tokenType) \(accessToken)" }

    /// Whether the access token expires within `margin` of `now`.
    public func expires(within margin: Duration, of now: Date) -> Bool {
        expiresAt.timeIntervalSince(now) <= Double(margin.components.seconds)
            + Double(margin.components.attoseconds) / 1e18
    }

    /// Says when the tokens expire, never what they are.
    public var description: String { "AuthTokens(expiresAt: \(expiresAt), tokens: \(Redaction.placeholder))" }
    /// Says when the tokens expire, never what they are.
    public var debugDescription: String { description }
}
