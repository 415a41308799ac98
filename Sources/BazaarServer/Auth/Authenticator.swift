import Foundation
import Hummingbird

/// The signed-in caller of a request.
struct Caller: Sendable {
    /// The user's id.
    var userId: String
    /// The session the access token belongs to.
    var sessionId: String
}

/// Finds the caller of a request from its access token, or answers 401.
struct Authenticator: Sendable {
    let tokens: TokenService
    let store: any BazaarStore

    /// The caller, from `Authorization: Bearer`, or (when `allowQueryToken`) from `?token=`.
    ///
    /// The token must be correctly signed, unexpired, and its session not revoked (logout and
    /// refresh-token reuse revoke sessions).
    func authenticate(_ request: Request, allowQueryToken: Bool = false) async throws -> Caller {
        guard let token = Self.bearerToken(request) ?? (allowQueryToken ? request.uri.queryParameters["token"].map(String.init) : nil),
            !token.isEmpty
        else {
            throw APIError.unauthorized("unauthenticated", "This route needs an access token (Authorization: Bearer).")
        }
        let (userId, sessionId) = try await tokens.verifyAccessToken(token)
        guard try await store.isSessionActive(id: sessionId) else {
            throw APIError.unauthorized("session_revoked", "The session has ended; sign in again.")
        }
        return Caller(userId: userId, sessionId: sessionId)
    }

    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}
