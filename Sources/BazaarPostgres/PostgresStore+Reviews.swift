import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    static let reviewColumns = "id, seq, product_id, author_id, subject_id, rating, text, created_at"

    /// The reviews of a product.
    public func reviews(productId: String) async throws -> [Review] {
        try await database.rows(
            "SELECT \(unescaped: Self.reviewColumns) FROM reviews WHERE product_id = \(productId) ORDER BY seq"
        ).map(Self.review)
    }

    /// The reviews a user received, newest first.
    public func reviews(subjectId: String, before position: Int64?, limit: Int) async throws -> Slice<Review> {
        let rows = try await database.rows(
            """
            SELECT \(unescaped: Self.reviewColumns) FROM reviews
            WHERE subject_id = \(subjectId) AND seq < \(position ?? Int64.max) ORDER BY seq DESC LIMIT \(Int64(limit + 1))
            """)
        return try Self.slice(rows, limit: limit, map: Self.review)
    }

    /// A review from a row of ``reviewColumns``, decoded by position.
    static func review(_ row: PostgresRow) throws -> Review {
        let (id, _, productId, authorId, subjectId, rating, text, createdAt) = try row.decode(
            (String, Int64, String, String, String, Int, String, Int64).self)
        return Review(
            id: id, productId: productId, authorId: authorId, subjectId: subjectId, rating: rating, text: text,
            createdAt: StoredValues.date(createdAt))
    }
}
