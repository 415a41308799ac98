import BazaarStorage
import Foundation
import Hummingbird

/// The signed-in caller of a request.
struct Caller: Sendable {
    /// The user's id.
    var userId: String
    /// The session the access token belongs to.
    var sessionId: String
    /// When the access token expires (a live socket opened with it is closed then).
    var tokenExpiresAt: Date
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
        guard
            let token = Self.bearerToken(request)
                ?? (allowQueryToken ? ParsedQuery(request)["token"].map(String.init) : nil),
            !token.isEmpty
        else {
            throw APIError.unauthorized("unauthenticated", "This route needs an access token (Authorization: Bearer).")
        }
        let claims = try await tokens.verifyAccessToken(token)
        guard try await store.isSessionActive(id: claims.sessionId) else {
            throw APIError.unauthorized("session_revoked", "The session has ended; sign in again.")
        }
        return Caller(userId: claims.userId, sessionId: claims.sessionId, tokenExpiresAt: claims.expiresAt)
    }

    /// The token of an `Authorization: Bearer <token>` header (the scheme in any case), or `nil`.
    ///
    /// Compares bytes rather than lower-casing the header: every authenticated request reads it.
    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let bytes = header.utf8
        guard let space = bytes.firstIndex(of: UInt8(ascii: " ")),
            bytes[..<space].elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 })  // ASCII letters, any case
        else { return nil }
        let token = Substring(header.utf8[bytes.index(after: space)...]).trimmingWhitespace()
        return token.isEmpty ? nil : String(token)
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
