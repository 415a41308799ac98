import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Starts a session with its first refresh token hash.
    public func createSession(
        id: String, userId: String, passwordHash: String, refreshTokenHash: String, expiresAt: Date,
        userAgent: String?, now: Date
    ) async throws -> Bool {
        let nowMillis = StoredValues.millis(now)
        return try await database.withTransaction { transaction in
            // The user's row shared-locked: a suspension, erasure or password change (each
            // updates the row first) waits for this transaction, then revokes the session it
            // made; one that came first is seen here, after its commit, and no session is made.
            let standing = try await transaction.rows(
                """
                SELECT 1 FROM users
                WHERE id = \(userId) AND suspended_at IS NULL AND deleted_at IS NULL AND password_hash = \(passwordHash)
                FOR SHARE
                """)
            guard !standing.isEmpty else { return false }
            try await transaction.rows(
                """
                INSERT INTO sessions (id, user_id, created_at, revoked_at, last_used_at, user_agent)
                VALUES (\(id), \(userId), \(nowMillis), NULL, \(nowMillis), \(userAgent))
                """)
            try await transaction.rows(
                """
                INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at, used_at)
                VALUES (\(refreshTokenHash), \(id), \(nowMillis), \(StoredValues.millis(expiresAt)), NULL)
                """)
            return true
        }
    }

    /// Spends a refresh token under a row lock (``RefreshRotation`` decides): when two replicas
    /// spend the same token at once, the second waits for the first, then finds it spent, and
    /// replays its successor within the reuse interval or revokes the session after it.
    public func rotateRefreshToken(
        hash: String, newHash: String, newExpiresAt: Date, now: Date, reuseInterval: Duration
    ) async throws -> RefreshOutcome {
        let nowMillis = StoredValues.millis(now)
        let outcome: RefreshOutcome = try await database.withTransaction { transaction in
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
                try await transaction.rows("UPDATE sessions SET last_used_at = \(nowMillis) WHERE id = \(sessionId)")
                return .rotated(userId: userId, sessionId: sessionId)
            }
        }
        if case .reused(let sessionId) = outcome { activeSessions.forget(sessionId) }
        return outcome
    }

    /// Revokes a session (its refresh tokens stop working with it) and announces the revocation
    /// in the same statement, so every replica closes the session's sockets once it commits.
    public func revokeSession(id: String, now: Date) async throws {
        // Also when the write fails: whether it committed is then unknown, and the database decides.
        defer { activeSessions.forget(id) }
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

    /// Whether the session exists and is not revoked; a session found active is remembered
    /// (``ActiveSessionMemo``) until a revocation reaches this replica or the listener stops
    /// vouching for the memo.
    public func isSessionActive(id: String) async throws -> Bool {
        if activeSessions.isKnownActive(id) { return true }
        let generation = activeSessions.generation
        let active = try await !database.execute(PreparedStatements.ActiveSession(sessionId: id)).isEmpty
        if active { activeSessions.remember(id, readAt: generation) }
        return active
    }

    public func session(id: String) async throws -> SessionRecord? {
        try await database.rows("SELECT \(unescaped: Self.sessionColumns) FROM sessions WHERE id = \(id)").first.map(
            Self.sessionRecord)
    }

    public func activeSessions(userId: String) async throws -> [SessionRecord] {
        try await database.rows(
            """
            SELECT \(unescaped: Self.sessionColumns) FROM sessions
            WHERE user_id = \(userId) AND revoked_at IS NULL ORDER BY created_at DESC, id
            """
        ).map(Self.sessionRecord)
    }

    /// Revokes the user's other sessions and announces it in the same transaction.
    @discardableResult
    public func revokeSessions(userId: String, except: String?, now: Date) async throws -> [String] {
        let millis = StoredValues.millis(now)
        let revoked = try await database.withTransaction { transaction in
            let revoked = try await Self.revokeSessions(of: userId, except: except, atMillis: millis, in: transaction)
            if !revoked.isEmpty { try await transaction.rows(Self.announceRevocation(of: revoked, at: millis)) }
            return revoked
        }
        activeSessions.forget(revoked)
        return revoked
    }

    /// Stores the new hash and revokes (and announces) the other sessions in one transaction.
    public func setPassword(userId: String, hash: String, keepingSession sessionId: String, now: Date) async throws {
        let millis = StoredValues.millis(now)
        let revoked = try await database.withTransaction { transaction in
            try await transaction.rows("UPDATE users SET password_hash = \(hash) WHERE id = \(userId)")
            let revoked = try await Self.revokeSessions(
                of: userId, except: sessionId, atMillis: millis, in: transaction)
            if !revoked.isEmpty { try await transaction.rows(Self.announceRevocation(of: revoked, at: millis)) }
            return revoked
        }
        activeSessions.forget(revoked)
    }

    /// Revokes every session of `userId` but `except` that is not revoked yet; returns their ids.
    static func revokeSessions(
        of userId: String, except: String?, atMillis millis: Int64, in transaction: PostgresTransaction
    ) async throws -> [String] {
        try await transaction.rows(
            """
            UPDATE sessions SET revoked_at = \(millis)
            WHERE user_id = \(userId) AND revoked_at IS NULL AND id <> \(except ?? "") RETURNING id
            """
        ).map { try $0.decode(String.self) }
    }

    static let sessionColumns = "id, user_id, created_at, last_used_at, user_agent, revoked_at"

    static func sessionRecord(_ row: PostgresRow) throws -> SessionRecord {
        let (id, userId, createdAt, lastUsedAt, userAgent, revokedAt) = try row.decode(
            (String, String, Int64, Int64?, String?, Int64?).self)
        return SessionRecord(
            id: id, userId: userId, createdAt: StoredValues.date(createdAt),
            lastUsedAt: StoredValues.date(lastUsedAt ?? createdAt), userAgent: userAgent,
            revokedAt: revokedAt.map(StoredValues.date))
    }
}
