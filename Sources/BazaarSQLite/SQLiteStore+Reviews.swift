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
            try Self.newestFirst(
                db, table: "reviews", where: "subject_id", equals: subjectId, before: position, limit: limit,
                map: Self.review)
        }
    }
}
