import Foundation
import GRDB

extension SQLiteStore {
    /// Starts a session with its first refresh token hash.
    public func createSession(id: String, userId: String, refreshTokenHash: String, expiresAt: Date, now: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO sessions (id, user_id, created_at, revoked_at) VALUES (?, ?, ?, NULL)",
                arguments: [id, userId, Self.millis(now)])
            try db.execute(
                sql: "INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)",
                arguments: [refreshTokenHash, id, Self.millis(now), Self.millis(expiresAt)])
        }
    }

    /// Spends a refresh token: rotates it, or revokes the session when it was spent before.
    public func rotateRefreshToken(hash: String, newHash: String, newExpiresAt: Date, now: Date) async throws -> RefreshOutcome {
        try await writer.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT t.session_id, t.expires_at, t.used_at, s.user_id, s.revoked_at
                        FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id
                        WHERE t.token_hash = ?
                        """,
                    arguments: [hash])
            else { return .invalid }
            let sessionId = try row.decode(String.self, forColumn: "session_id")
            if try row.decode(Int64?.self, forColumn: "revoked_at") != nil { return .invalid }
            if try row.decode(Int64?.self, forColumn: "used_at") != nil {
                // Reuse: someone holds a copy of a spent token. End the whole session.
                try db.execute(sql: "UPDATE sessions SET revoked_at = ? WHERE id = ?", arguments: [Self.millis(now), sessionId])
                return .reused(sessionId: sessionId)
            }
            if try row.decode(Int64.self, forColumn: "expires_at") <= Self.millis(now) { return .invalid }
            try db.execute(
                sql: "UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
                arguments: [Self.millis(now), hash])
            try db.execute(
                sql: "INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)",
                arguments: [newHash, sessionId, Self.millis(now), Self.millis(newExpiresAt)])
            return .rotated(userId: try row.decode(String.self, forColumn: "user_id"), sessionId: sessionId)
        }
    }

    /// Revokes a session (its refresh tokens stop working with it).
    public func revokeSession(id: String, now: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                arguments: [Self.millis(now), id])
        }
    }

    /// Whether the session exists and is not revoked.
    public func isSessionActive(id: String) async throws -> Bool {
        try await pool.read { db in
            try Int.fetchOne(db, sql: "SELECT 1 FROM sessions WHERE id = ? AND revoked_at IS NULL", arguments: [id]) != nil
        }
    }
}
