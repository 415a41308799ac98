import BazaarAPI
import Foundation

/// The rule of spending a refresh token, one place for both engines: each reads the token's row
/// (and, for a token spent before, whether its successor is unspent) and writes what this says.
public enum RefreshRotation {
    /// What the stored row of the presented token says.
    public struct TokenRow: Sendable {
        /// When it was spent, if it was.
        public let usedAtMillis: Int64?
        public let expiresAtMillis: Int64
        /// Whether its session is revoked.
        public let sessionRevoked: Bool

        public init(usedAtMillis: Int64?, expiresAtMillis: Int64, sessionRevoked: Bool) {
            self.usedAtMillis = usedAtMillis
            self.expiresAtMillis = expiresAtMillis
            self.sessionRevoked = sessionRevoked
        }
    }

    /// What to do.
    public enum Decision: Sendable, Equatable {
        /// Mark it spent and store the successor.
        case rotate
        /// Answer with the successor again; write nothing.
        case replay
        /// Someone holds a copy of a spent token: revoke the session.
        case revoke
        /// Expired, or its session has ended.
        case invalid
    }

    /// The decision for `token` at `nowMillis`, for an engine that reads synchronously (inside
    /// its write transaction). `successorUnspent` says whether the successor derived from the
    /// presented token is stored, in the same session, and unspent; it is asked only for a token
    /// spent within `reuseInterval`.
    public static func decide(
        _ token: TokenRow, nowMillis: Int64, reuseInterval: Duration, successorUnspent: () throws -> Bool
    ) rethrows -> Decision {
        switch firstLook(token, nowMillis: nowMillis, reuseInterval: reuseInterval) {
        case .decided(let decision): decision
        case .replayIfSuccessorUnspent: try successorUnspent() ? .replay : .revoke
        }
    }

    /// ``decide(_:nowMillis:reuseInterval:successorUnspent:)`` for an engine that reads asynchronously.
    public static func decide(
        _ token: TokenRow, nowMillis: Int64, reuseInterval: Duration, successorUnspent: () async throws -> Bool
    ) async rethrows -> Decision {
        switch firstLook(token, nowMillis: nowMillis, reuseInterval: reuseInterval) {
        case .decided(let decision): decision
        case .replayIfSuccessorUnspent: try await successorUnspent() ? .replay : .revoke
        }
    }

    private enum FirstLook {
        case decided(Decision)
        case replayIfSuccessorUnspent
    }

    /// The rule: a revoked session's token is invalid; a spent token replays within the interval
    /// (if its successor is unspent) and is a reuse after it; an unspent one rotates until it expires.
    private static func firstLook(_ token: TokenRow, nowMillis: Int64, reuseInterval: Duration) -> FirstLook {
        if token.sessionRevoked { return .decided(.invalid) }
        if let usedAt = token.usedAtMillis {
            return nowMillis - usedAt <= Int64(reuseInterval.timeInterval * 1000)
                ? .replayIfSuccessorUnspent : .decided(.revoke)
        }
        return .decided(token.expiresAtMillis <= nowMillis ? .invalid : .rotate)
    }
}
