import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Deletes what the retention policy no longer keeps, in one transaction (the same rows as
    /// `SQLiteStore.prune`). Sessions deleted before they were revoked (their refresh tokens
    /// gone) are announced as revoked, so no replica's ``ActiveSessionMemo`` keeps them.
    public func prune(_ cutoffs: RetentionCutoffs) async throws -> PruneCounts {
        let (counts, ended) = try await database.withTransaction { transaction in
            var counts = PruneCounts()
            counts.idempotencyKeys = try await Self.count(
                transaction.rows(
                    "WITH gone AS (DELETE FROM idempotency_keys WHERE created_at < \(cutoffs.idempotencyKeys) RETURNING 1) SELECT COUNT(*) FROM gone"
                ))
            counts.refreshTokens = try await Self.count(
                transaction.rows(
                    """
                    WITH gone AS (
                        DELETE FROM refresh_tokens
                        WHERE expires_at < \(cutoffs.now) OR used_at < \(cutoffs.spentRefreshTokens)
                           OR session_id IN (SELECT id FROM sessions WHERE revoked_at < \(cutoffs.endedSessions))
                        RETURNING 1)
                    SELECT COUNT(*) FROM gone
                    """))
            let sessions = try await transaction.rows(
                """
                DELETE FROM sessions
                WHERE revoked_at < \(cutoffs.endedSessions)
                   OR (created_at < \(cutoffs.endedSessions)
                       AND NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.session_id = sessions.id))
                RETURNING id, revoked_at IS NULL
                """
            ).map { try $0.decode((String, Bool).self) }
            counts.sessions = sessions.count
            let ended = sessions.filter(\.1).map(\.0)
            if !ended.isEmpty {
                try await transaction.rows(Self.announceRevocation(of: ended, at: cutoffs.now))
            }
            counts.notifications = try await Self.count(
                transaction.rows(
                    "WITH gone AS (DELETE FROM notifications WHERE created_at < \(cutoffs.notifications) RETURNING 1) SELECT COUNT(*) FROM gone"
                ))
            // Each goes with its sizes (the table's delete trigger).
            counts.attachments = try await Self.count(
                transaction.rows(
                    """
                    WITH gone AS (
                        DELETE FROM attachments WHERE message_id IS NULL AND created_at < \(cutoffs.unsentAttachments)
                        RETURNING 1)
                    SELECT COUNT(*) FROM gone
                    """))
            return (counts, ended)
        }
        activeSessions.forget(ended)
        return counts
    }

    /// The one `COUNT(*)` of `rows`.
    private static func count(_ rows: [PostgresRow]) throws -> Int {
        try rows.first?.decode(Int.self) ?? 0
    }
}
