import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// Deletes what the retention policy no longer keeps, in one write transaction; the sessions
    /// deleted leave the active-session memo too.
    public func prune(_ cutoffs: RetentionCutoffs) async throws -> PruneCounts {
        let (counts, sessions) = try await writer.write { db -> (PruneCounts, [String]) in
            var counts = PruneCounts()
            try db.run(sql: "DELETE FROM idempotency_keys WHERE created_at < ?", arguments: [cutoffs.idempotencyKeys])
            counts.idempotencyKeys = db.changesCount
            try db.run(
                sql: """
                    DELETE FROM refresh_tokens
                    WHERE expires_at < ? OR used_at < ?
                       OR session_id IN (SELECT id FROM sessions WHERE revoked_at < ?)
                    """,
                arguments: [cutoffs.now, cutoffs.spentRefreshTokens, cutoffs.endedSessions])
            counts.refreshTokens = db.changesCount
            let sessions = try String.fetchAll(
                db,
                sql: """
                    DELETE FROM sessions
                    WHERE revoked_at < ?
                       OR (created_at < ? AND NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.session_id = sessions.id))
                    RETURNING id
                    """,
                arguments: [cutoffs.endedSessions, cutoffs.endedSessions])
            counts.sessions = sessions.count
            try db.run(sql: "DELETE FROM notifications WHERE created_at < ?", arguments: [cutoffs.notifications])
            counts.notifications = db.changesCount
            // Each goes with its sizes (the table's delete trigger).
            try db.run(
                sql: "DELETE FROM attachments WHERE message_id IS NULL AND created_at < ?",
                arguments: [cutoffs.unsentAttachments])
            counts.attachments = db.changesCount
            return (counts, sessions)
        }
        for session in sessions { activeSessions.forget(session) }
        return counts
    }
}
