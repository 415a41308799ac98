import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// The user's notifications, newest first.
    public func notifications(userId: String, before position: Int64?, limit: Int) async throws -> Slice<
        BazaarAPI.Notification
    > {
        try await pool.read { db in
            try Self.newestFirst(
                db, table: "notifications", where: "user_id", equals: userId, before: position, limit: limit,
                map: Self.notification)
        }
    }

    /// Marks some (or, with `ids == nil`, all) of the user's notifications read.
    public func markNotificationsRead(userId: String, ids: [String]?) async throws {
        try await writer.write { db in
            guard let ids else {
                try db.run(sql: "UPDATE notifications SET is_read = 1 WHERE user_id = ?", arguments: [userId])
                return
            }
            for id in ids {
                try db.run(
                    sql: "UPDATE notifications SET is_read = 1 WHERE user_id = ? AND id = ?", arguments: [userId, id])
            }
        }
    }
}
