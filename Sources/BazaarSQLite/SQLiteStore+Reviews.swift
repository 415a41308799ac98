import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// The reviews of a product.
    public func reviews(productId: String) async throws -> [Review] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM reviews WHERE product_id = ? ORDER BY seq"),
                arguments: [productId]
            ).map(Self.review)
        }
    }

    /// The reviews a user received, newest first.
    public func reviews(subjectId: String, before position: Int64?, limit: Int) async throws -> Slice<Review> {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM reviews WHERE subject_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?"),
                arguments: [subjectId, position ?? Int64.max, limit + 1])
            let page = rows.prefix(limit)
            let next = rows.count > limit ? try page.last?.decode(Int64.self, forColumn: "seq") : nil
            return Slice(items: try page.map(Self.review), next: next)
        }
    }
}
