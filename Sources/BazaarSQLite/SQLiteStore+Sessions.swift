import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// Starts a session with its first refresh token hash.
    public func createSession(
        id: String, userId: String, passwordHash: String, refreshTokenHash: String, expiresAt: Date,
        userAgent: String?, now: Date
    ) async throws -> Bool {
        try await writer.write { db in
            // Writers are serialised: no suspension, erasure or password change can commit
            // between this look and the inserts.
            guard
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT 1 FROM users
                            WHERE id = ? AND suspended_at IS NULL AND deleted_at IS NULL AND password_hash = ?
                            """),
                    arguments: [userId, passwordHash]) != nil
            else { return false }
            try db.run(
                sql: """
                    INSERT INTO sessions (id, user_id, created_at, revoked_at, last_used_at, user_agent)
                    VALUES (?, ?, ?, NULL, ?, ?)
                    """,
                arguments: [id, userId, StoredValues.millis(now), StoredValues.millis(now), userAgent])
            try db.run(
                sql:
                    "INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)",
                arguments: [refreshTokenHash, id, StoredValues.millis(now), StoredValues.millis(expiresAt)])
            return true
        }
    }

    /// Spends a refresh token: rotates it, replays its successor within the reuse interval, or
    /// revokes the session when it was spent before (``RefreshRotation``).
    public func rotateRefreshToken(
        hash: String, newHash: String, newExpiresAt: Date, now: Date, reuseInterval: Duration
    ) async throws -> RefreshOutcome {
        let nowMillis = StoredValues.millis(now)
        let outcome = try await writer.write { db -> RefreshOutcome in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT t.session_id, t.expires_at, t.used_at, s.user_id, s.revoked_at
                            FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id
                            WHERE t.token_hash = ?
                            """),
                    arguments: [hash])
            else { return .invalid }
            let sessionId = try row.decode(String.self, forColumn: "session_id")
            let userId = try row.decode(String.self, forColumn: "user_id")
            let token = RefreshRotation.TokenRow(
                usedAtMillis: try row.decode(Int64?.self, forColumn: "used_at"),
                expiresAtMillis: try row.decode(Int64.self, forColumn: "expires_at"),
                sessionRevoked: try row.decode(Int64?.self, forColumn: "revoked_at") != nil)
            let decision = try RefreshRotation.decide(
                token, nowMillis: nowMillis, reuseInterval: reuseInterval,
                successorUnspent: {
                    try Int.fetchOne(
                        db.cachedStatement(
                            sql:
                                "SELECT 1 FROM refresh_tokens WHERE token_hash = ? AND session_id = ? AND used_at IS NULL"
                        ),
                        arguments: [newHash, sessionId]) != nil
                })
            switch decision {
            case .invalid:
                return .invalid
            case .replay:
                return .replayed(userId: userId, sessionId: sessionId)
            case .revoke:
                // Reuse: someone holds a copy of a spent token. End the whole session.
                try db.run(sql: "UPDATE sessions SET revoked_at = ? WHERE id = ?", arguments: [nowMillis, sessionId])
                return .reused(sessionId: sessionId)
            case .rotate:
                try db.run(
                    sql: "UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
                    arguments: [nowMillis, hash])
                try db.run(
                    sql:
                        "INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)",
                    arguments: [newHash, sessionId, nowMillis, StoredValues.millis(newExpiresAt)])
                try db.run(sql: "UPDATE sessions SET last_used_at = ? WHERE id = ?", arguments: [nowMillis, sessionId])
                return .rotated(userId: userId, sessionId: sessionId)
            }
        }
        if case .reused(let sessionId) = outcome {
            activeSessions.forget(sessionId)
            await events?.sessionsRevoked([sessionId])
        }
        return outcome
    }

    /// Revokes a session (its refresh tokens stop working with it) and, once that has committed,
    /// closes its sockets (this process holds them all).
    public func revokeSession(id: String, now: Date) async throws {
        // Also when the write fails: whether it committed is then unknown, and the database decides.
        defer { activeSessions.forget(id) }
        let revoked = try await writer.write { db in
            try db.run(
                sql: "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                arguments: [StoredValues.millis(now), id])
            return db.changesCount > 0
        }
        if revoked { await events?.sessionsRevoked([id]) }
    }

    /// Whether the session exists and is not revoked; a session found active is remembered
    /// (``ActiveSessionMemo``) until this store revokes it.
    public func isSessionActive(id: String) async throws -> Bool {
        if activeSessions.isKnownActive(id) { return true }
        let generation = activeSessions.generation
        let active = try await pool.read { db in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM sessions WHERE id = ? AND revoked_at IS NULL"), arguments: [id])
                != nil
        }
        if active { activeSessions.remember(id, readAt: generation) }
        return active
    }

    public func session(id: String) async throws -> SessionRecord? {
        try await pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM sessions WHERE id = ?"), arguments: [id]).map(
                Self.sessionRecord)
        }
    }

    public func activeSessions(userId: String) async throws -> [SessionRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM sessions WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id"),
                arguments: [userId]
            ).map(Self.sessionRecord)
        }
    }

    /// Revokes the user's other sessions; once that has committed, closes their sockets.
    @discardableResult
    public func revokeSessions(userId: String, except: String?, now: Date) async throws -> [String] {
        let revoked = try await writer.write { db in
            try Self.revokeSessions(of: userId, except: except, at: StoredValues.millis(now), in: db)
        }
        await announce(revoked)
        return revoked
    }

    /// Stores the new hash and revokes the other sessions in one transaction; then closes their sockets.
    public func setPassword(userId: String, hash: String, keepingSession sessionId: String, now: Date) async throws {
        let revoked = try await writer.write { db in
            try db.run(sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [hash, userId])
            return try Self.revokeSessions(of: userId, except: sessionId, at: StoredValues.millis(now), in: db)
        }
        await announce(revoked)
    }

    /// Forgets revoked sessions as active and closes their sockets (after their revocation committed).
    func announce(_ revoked: [String]) async {
        guard !revoked.isEmpty else { return }
        for id in revoked { activeSessions.forget(id) }
        await events?.sessionsRevoked(revoked)
    }

    /// Revokes every session of `userId` but `except` that is not revoked yet; returns their ids.
    static func revokeSessions(of userId: String, except: String?, at nowMillis: Int64, in db: Database) throws
        -> [String]
    {
        try String.fetchAll(
            db.cachedStatement(
                sql: """
                    UPDATE sessions SET revoked_at = ?
                    WHERE user_id = ? AND revoked_at IS NULL AND id <> ? RETURNING id
                    """),
            arguments: [nowMillis, userId, except ?? ""])
    }

    static func sessionRecord(_ row: Row) throws -> SessionRecord {
        let createdAt = StoredValues.date(try row.decode(Int64.self, forColumn: "created_at"))
        return SessionRecord(
            id: try row.decode(String.self, forColumn: "id"),
            userId: try row.decode(String.self, forColumn: "user_id"),
            createdAt: createdAt,
            lastUsedAt: try row.decode(Int64?.self, forColumn: "last_used_at").map(StoredValues.date) ?? createdAt,
            userAgent: try row.decode(String?.self, forColumn: "user_agent"),
            revokedAt: try row.decode(Int64?.self, forColumn: "revoked_at").map(StoredValues.date))
    }
}
