import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// ``productColumns`` of the products table aliased `p`, made once.
    static let joinedProductColumns = productColumns.split(separator: ",")
        .map { "p." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    /// Who saved the product.
    public func favouriteUserIds(productId: String) async throws -> [String] {
        try await database.rows("SELECT user_id FROM favourites WHERE product_id = \(productId) ORDER BY seq").map {
            try $0.decode(String.self)
        }
    }

    /// The products a user saved, most recently saved first.
    public func favourites(userId: String, before position: Int64?, limit: Int) async throws -> Slice<Product> {
        let rows = try await database.rows(
            """
            SELECT \(unescaped: Self.joinedProductColumns), f.seq AS favourite_seq FROM favourites f JOIN products p ON p.id = f.product_id AND NOT p.hidden
            WHERE f.user_id = \(userId) AND f.seq < \(position ?? Int64.max) ORDER BY f.seq DESC LIMIT \(Int64(limit + 1))
            """)
        return try Slice(fetched: rows, limit: limit, item: Self.product) { row in
            try row.makeRandomAccess()["favourite_seq"].decode(Int64.self)
        }
    }
}
