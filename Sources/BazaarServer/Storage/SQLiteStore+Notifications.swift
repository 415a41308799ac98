import BazaarAPI
import Foundation
import GRDB

extension SQLiteStore {
    /// The user's notifications, newest first.
    public func notifications(userId: String, before position: Int64?, limit: Int) async throws -> Slice<BazaarAPI.Notification> {
        try await pool.read { db in
            var sql = "SELECT * FROM notifications WHERE user_id = ?"
            var arguments: StatementArguments = [userId]
            if let position {
                sql += " AND seq < ?"
                arguments += [position]
            }
            sql += " ORDER BY seq DESC LIMIT ?"
            arguments += [limit + 1]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let page = Array(rows.prefix(limit))
            let next: Int64? = rows.count > limit ? try page.last?.decode(Int64.self, forColumn: "seq") : nil
            return Slice(items: try page.map(Self.notification), next: next)
        }
    }

    /// Marks some (or, with `ids == nil`, all) of the user's notifications read.
    public func markNotificationsRead(userId: String, ids: [String]?) async throws {
        try await pool.write { db in
            guard let ids else {
                try db.execute(sql: "UPDATE notifications SET is_read = 1 WHERE user_id = ?", arguments: [userId])
                return
            }
            for id in ids {
                try db.execute(
                    sql: "UPDATE notifications SET is_read = 1 WHERE user_id = ? AND id = ?", arguments: [userId, id])
            }
        }
    }
}
