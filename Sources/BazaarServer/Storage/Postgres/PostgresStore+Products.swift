import BazaarAPI
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Lists a product; its identity `seq` orders the product list.
    public func createProduct(_ product: Product) async throws {
        try await database.rows(
            """
            INSERT INTO products (id, seller_id, title, description, price_cents, currency, created_at)
            VALUES (\(product.id), \(product.sellerId), \(product.title), \(product.description), \(product.priceCents),
                \(product.currency), \(SQLiteStore.millis(product.createdAt)))
            """)
    }

    /// The product with this id, or `nil`.
    public func product(id: String) async throws -> Product? {
        try await database.rows("SELECT \(unescaped: Self.productColumns) FROM products WHERE id = \(id)").first
            .map(Self.product)
    }

    /// Products newest first (by `seq`), filtered by a case-insensitive substring of title or
    /// description, keyset-paginated as on SQLite.
    public func products(matching query: String?, before position: Int64?, limit: Int) async throws -> Slice<Product> {
        let pattern: String? = query.flatMap { $0.isEmpty ? nil : "%" + SQLiteStore.escapeLike($0.lowercased()) + "%" }
        let rows = try await database.rows(
            """
            SELECT \(unescaped: Self.productColumns) FROM products
            WHERE (\(pattern)::TEXT IS NULL OR LOWER(title) LIKE \(pattern) ESCAPE '\\' OR LOWER(description) LIKE \(pattern) ESCAPE '\\')
              AND (\(position)::BIGINT IS NULL OR seq < \(position))
            ORDER BY seq DESC LIMIT \(limit + 1)
            """)
        return try Self.slice(rows, limit: limit, map: Self.product)
    }
}
