import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Starts a session with its first refresh token hash.
    public func createSession(id: String, userId: String, refreshTokenHash: String, expiresAt: Date, now: Date)
        async throws
    {
        let nowMillis = StoredValues.millis(now)
        try await database.withTransaction { transaction in
            try await transaction.rows(
                "INSERT INTO sessions (id, user_id, created_at, revoked_at) VALUES (\(id), \(userId), \(nowMillis), NULL)"
            )
            try await transaction.rows(
                """
                INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at, used_at)
                VALUES (\(refreshTokenHash), \(id), \(nowMillis), \(StoredValues.millis(expiresAt)), NULL)
                """)
        }
    }

    /// Spends a refresh token under a row lock (``RefreshRotation`` decides): when two replicas
    /// spend the same token at once, the second waits for the first, then finds it spent, and
    /// replays its successor within the reuse interval or revokes the session after it.
    public func rotateRefreshToken(
        hash: String, newHash: String, newExpiresAt: Date, now: Date, reuseInterval: Duration
    ) async throws -> RefreshOutcome {
        let nowMillis = StoredValues.millis(now)
        return try await database.withTransaction { transaction in
            guard
                let row = try await transaction.rows(
                    """
                    SELECT t.session_id, t.expires_at, t.used_at, s.user_id, s.revoked_at
                    FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id
                    WHERE t.token_hash = \(hash)
                    FOR UPDATE OF t, s
                    """
                ).first
            else { return .invalid }
            let cells = row.makeRandomAccess()
            let sessionId = try cells["session_id"].decode(String.self)
            let userId = try cells["user_id"].decode(String.self)
            let token = RefreshRotation.TokenRow(
                usedAtMillis: try cells["used_at"].decode(Int64?.self),
                expiresAtMillis: try cells["expires_at"].decode(Int64.self),
                sessionRevoked: try cells["revoked_at"].decode(Int64?.self) != nil)
            let decision = try await RefreshRotation.decide(
                token, nowMillis: nowMillis, reuseInterval: reuseInterval,
                successorUnspent: {
                    try await !transaction.rows(
                        """
                        SELECT 1 FROM refresh_tokens
                        WHERE token_hash = \(newHash) AND session_id = \(sessionId) AND used_at IS NULL
                        """
                    ).isEmpty
                })
            switch decision {
            case .invalid:
                return .invalid
            case .replay:
                return .replayed(userId: userId, sessionId: sessionId)
            case .revoke:
                // Reuse: someone holds a copy of a spent token. End the whole session, and close
                // its sockets on every replica when this commits.
                try await transaction.rows("UPDATE sessions SET revoked_at = \(nowMillis) WHERE id = \(sessionId)")
                try await transaction.rows(Self.announceRevocation(of: [sessionId], at: nowMillis))
                return .reused(sessionId: sessionId)
            case .rotate:
                try await transaction.rows(
                    "UPDATE refresh_tokens SET used_at = \(nowMillis) WHERE token_hash = \(hash)")
                try await transaction.rows(
                    """
                    INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at, used_at)
                    VALUES (\(newHash), \(sessionId), \(nowMillis), \(StoredValues.millis(newExpiresAt)), NULL)
                    """)
                return .rotated(userId: userId, sessionId: sessionId)
            }
        }
    }

    /// Revokes a session (its refresh tokens stop working with it) and announces the revocation
    /// in the same statement, so every replica closes the session's sockets once it commits.
    public func revokeSession(id: String, now: Date) async throws {
        let nowMillis = StoredValues.millis(now)
        try await database.rows(
            """
            WITH revoked AS (
                UPDATE sessions SET revoked_at = \(nowMillis) WHERE id = \(id) AND revoked_at IS NULL RETURNING id)
            SELECT bazaar_publish(\(PostgresEventBus.Kind.revoked.rawValue), ARRAY(SELECT id FROM revoked), '', \(nowMillis))
            WHERE EXISTS (SELECT 1 FROM revoked)
            """)
    }

    /// The statement that announces, inside the revoking transaction, that `sessionIds` were
    /// revoked: a `revoked` row of `live_events` every replica's listener reads.
    static func announceRevocation(of sessionIds: [String], at nowMillis: Int64) -> PostgresQuery {
        "SELECT bazaar_publish(\(PostgresEventBus.Kind.revoked.rawValue), \(sessionIds), '', \(nowMillis))"
    }

    /// Whether the session exists and is not revoked.
    public func isSessionActive(id: String) async throws -> Bool {
        try await !database.execute(PreparedStatements.ActiveSession(sessionId: id)).isEmpty
    }
}
