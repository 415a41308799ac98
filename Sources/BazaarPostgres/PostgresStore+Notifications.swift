import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// The user's notifications, newest first.
    public func notifications(userId: String, before position: Int64?, limit: Int) async throws -> Slice<
        BazaarAPI.Notification
    > {
        let rows = try await database.rows(
            """
            SELECT \(unescaped: Self.notificationColumns) FROM notifications
            WHERE user_id = \(userId) AND (\(position)::BIGINT IS NULL OR seq < \(position))
            ORDER BY seq DESC LIMIT \(limit + 1)
            """)
        return try Self.slice(rows, limit: limit, map: Self.notification)
    }

    /// Marks some (or, with `ids == nil`, all) of the user's notifications read, in one statement.
    public func markNotificationsRead(userId: String, ids: [String]?) async throws {
        if let ids {
            try await database.rows(
                "UPDATE notifications SET is_read = TRUE WHERE user_id = \(userId) AND id = ANY(\(ids))")
        } else {
            try await database.rows("UPDATE notifications SET is_read = TRUE WHERE user_id = \(userId) AND NOT is_read")
        }
    }
}
