import BazaarAPI
import Foundation
import GRDB

extension SQLiteStore {
    /// Lists a product; its `seq` orders the product list.
    public func createProduct(_ product: Product) async throws {
        try await writer.write { db in
            let seq = try Self.nextSeq(db, table: .products)
            try db.execute(
                sql: """
                    INSERT INTO products (id, seq, seller_id, title, description, price_cents, currency, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    product.id, seq, product.sellerId, product.title, product.description, product.priceCents,
                    product.currency, Self.millis(product.createdAt),
                ])
        }
    }

    /// The product with this id, or `nil`.
    public func product(id: String) async throws -> Product? {
        try await pool.read { db in try Self.fetchProduct(db, id: id) }
    }

    /// Products newest first (by `seq`), filtered by a case-insensitive substring of title or description.
    ///
    /// Keyset pagination on `seq` keeps pages stable: products added meanwhile get higher numbers
    /// and so never push an item onto a later page twice or skip one.
    public func products(matching query: String?, before position: Int64?, limit: Int) async throws -> Slice<Product> {
        try await pool.read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let query, !query.isEmpty {
                let pattern = "%" + Self.escapeLike(query.lowercased()) + "%"
                conditions.append("(LOWER(title) LIKE ? ESCAPE '\\' OR LOWER(description) LIKE ? ESCAPE '\\')")
                arguments += [pattern, pattern]
            }
            if let position {
                conditions.append("seq < ?")
                arguments += [position]
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            arguments += [limit + 1]
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM products \(whereClause) ORDER BY seq DESC LIMIT ?", arguments: arguments)
            let page = Array(rows.prefix(limit))
            let next: Int64? = rows.count > limit ? try page.last?.decode(Int64.self, forColumn: "seq") : nil
            return Slice(items: try page.map(Self.product), next: next)
        }
    }

    /// Escapes `%`, `_` and the escape character itself for a `LIKE ... ESCAPE '\'` pattern.
    static func escapeLike(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
