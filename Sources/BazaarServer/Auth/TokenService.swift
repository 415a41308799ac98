import BazaarAPI
import BazaarStorage
import Crypto
import Foundation
import JWTKit

/// Issues and checks tokens: signed short-lived access tokens and opaque refresh tokens.
struct TokenService: Sendable {
    let keys: JWTKeyCollection
    let accessLifetime: Duration
    let refreshLifetime: Duration
    let now: @Sendable () -> Date
    /// Tokens already verified, so each is checked once.
    let verified = VerifiedAccessTokens()
    /// The key successor refresh tokens are derived with (from the signing key, so every replica
    /// derives the same successor).
    private let successorKey: SymmetricKey

    init(signingKey: Data, accessLifetime: Duration, refreshLifetime: Duration, now: @escaping @Sendable () -> Date)
        async
    {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(key: SymmetricKey(data: signingKey)), digestAlgorithm: .sha256)
        successorKey = SymmetricKey(
            data: HMAC<SHA256>.authenticationCode(
                for: Data("bazaar refresh-token successor".utf8), using: SymmetricKey(data: signingKey)))
        self.accessLifetime = accessLifetime
        self.refreshLifetime = refreshLifetime
        self.now = now
    }

    /// What an access token says.
    struct AccessClaims: JWTPayload {
        var sub: SubjectClaim
        var sid: String
        var iat: IssuedAtClaim
        var exp: ExpirationClaim

        /// Only the signature is checked here; expiry is checked against the injected clock.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// A signed access token for the session, and when it expires.
    func accessToken(userId: String, sessionId: String) async throws -> (token: String, expiresAt: Date) {
        let issuedAt = now()
        // Whole seconds: JWT times are NumericDate seconds.
        let expiresAt = Date(
            timeIntervalSince1970: (issuedAt.timeIntervalSince1970 + accessLifetime.timeInterval).rounded(.down))
        let claims = AccessClaims(
            sub: .init(value: userId), sid: sessionId, iat: .init(value: issuedAt), exp: .init(value: expiresAt))
        return (try await keys.sign(claims), expiresAt)
    }

    /// The user, session and expiry of a valid access token; throws ``APIError`` 401 otherwise.
    func verifyAccessToken(_ token: String) async throws -> VerifiedAccessTokens.Claims {
        let current = now()
        let known: VerifiedAccessTokens.Claims
        if let verified = verified.claims(of: token) {
            known = verified
        } else {
            let claims: AccessClaims
            do {
                claims = try await keys.verify(token, as: AccessClaims.self)
            } catch {
                throw APIError.unauthorized("invalid_token", "The access token is not valid.")
            }
            known = VerifiedAccessTokens.Claims(
                userId: claims.sub.value, sessionId: claims.sid, expiresAt: claims.exp.value)
            verified.remember(known, of: token, now: current)
        }
        if known.expiresAt <= current {
            throw APIError.unauthorized("token_expired", "The access token has expired.")
        }
        return known
    }

    /// A new opaque refresh token (32 random bytes, base64url).
    func newRefreshToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in bytes.indices { bytes[index] = UInt8.random(in: .min ... .max) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The refresh token that replaces `token` when it is spent: derived from it (HMAC-SHA256
    /// under a key only the servers hold), so a client that presents the same token again within
    /// the reuse interval, its first answer lost, gets the same successor from any replica
    /// without the server storing any token in the clear. 32 bytes, base64url.
    func successorRefreshToken(of token: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: successorKey)
        return Data(code).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The stored form of a refresh token: its SHA-256 in hex.
    func hashRefreshToken(_ token: String) -> String {
        Hex.lowercase(SHA256.hash(data: Data(token.utf8)))
    }

    /// When a refresh token issued now stops working.
    func refreshExpiry() -> Date {
        now().addingTimeInterval(refreshLifetime.timeInterval)
    }
}
