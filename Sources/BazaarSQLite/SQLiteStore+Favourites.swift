import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// Who saved the product.
    public func favouriteUserIds(productId: String) async throws -> [String] {
        try await pool.read { db in
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT user_id FROM favourites WHERE product_id = ? ORDER BY seq"),
                arguments: [productId])
        }
    }

    /// The products a user saved, most recently saved first.
    public func favourites(userId: String, before position: Int64?, limit: Int) async throws -> Slice<Product> {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT p.*, f.seq AS favourite_seq FROM favourites f JOIN products p ON p.id = f.product_id AND p.hidden = 0
                        WHERE f.user_id = ? AND f.seq < ? ORDER BY f.seq DESC LIMIT ?
                        """),
                arguments: [userId, position ?? Int64.max, limit + 1])
            return try Slice(fetched: rows, limit: limit, item: Self.product) { row in
                try row.decode(Int64.self, forColumn: "favourite_seq")
            }
        }
    }
}
