import BazaarAPI
import BazaarSearch
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// Lists a product; its `seq` orders the product list (and the full-text index follows by trigger).
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
                    product.currency, StoredValues.millis(product.createdAt),
                ])
        }
    }

    /// The product with this id, or `nil`.
    public func product(id: String) async throws -> Product? {
        try await pool.read { db in try Self.fetchProduct(db, id: id) }
    }

    /// The product with this id as stored, or `nil`.
    public func productRecord(id: String) async throws -> ProductRecord? {
        try await pool.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM products WHERE id = ? AND hidden = 0"), arguments: [id]
            ).map(Self.productRecord)
        }
    }

    /// Whether the two users have a conversation about the product.
    public func hasConversation(about productId: String, between userId: String, and otherUserId: String)
        async throws -> Bool
    {
        let (low, high) = userId < otherUserId ? (userId, otherUserId) : (otherUserId, userId)
        return try await pool.read { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT EXISTS (SELECT 1 FROM conversations WHERE user_low = ? AND user_high = ? AND product_id = ?)"
                ),
                arguments: [low, high, productId]) ?? false
        }
    }

    /// One ordered run of products. A text condition is answered by the FTS5 index, whose rowid
    /// is `seq`: newest first it walks the index backwards from the position and stops at the limit.
    public func scanProducts(_ scan: ProductScan) async throws -> [ScannedProduct] {
        let (sql, arguments) = Self.sql(for: scan)
        return try await pool.read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                ScannedProduct(product: try Self.product(row), seq: try row.decode(Int64.self, forColumn: "seq"))
            }
        }
    }

    /// The statement for `scan`; every value is bound, and the text is only FTS5 syntax made by
    /// ``SearchExpression`` (phrases quoted), itself bound as the `MATCH` argument.
    static func sql(for scan: ProductScan) -> (String, StatementArguments) {
        // A suspended seller's listings are hidden from every list and search.
        var conditions: [String] = ["p.hidden = 0"]
        var arguments: StatementArguments = []
        var from = "products p"
        var seq = "p.seq"
        switch scan.text {
        case .all:
            break
        case .matching(let search):
            (from, seq) = ("products_fts f JOIN products p ON p.seq = f.rowid", "f.rowid")
            conditions.append("products_fts MATCH ?")
            arguments += [search.fts5Match]
        case .titleMatching(let search):
            // The titles' own index finds the candidates; the whole search (its exclusions)
            // is then checked product by product, by rowid.
            (from, seq) = ("products_title_fts t JOIN products p ON p.seq = t.rowid", "t.rowid")
            conditions.append("products_title_fts MATCH ?")
            arguments += [search.requiredOnly.fts5Match]
            if search.hasExclusions {
                conditions.append("EXISTS (SELECT 1 FROM products_fts WHERE products_fts MATCH ? AND rowid = t.rowid)")
                arguments += [search.fts5Match]
            }
        case .descriptionOnlyMatching(let search):
            (from, seq) = ("products_fts f JOIN products p ON p.seq = f.rowid", "f.rowid")
            conditions.append("products_fts MATCH ?")
            arguments += ["(\(search.fts5Match)) NOT (\(search.requiredOnly.fts5TitleMatch))"]
        }
        if let minimum = scan.filters.minPriceCents {
            conditions.append("p.price_cents >= ?")
            arguments += [minimum]
        }
        if let maximum = scan.filters.maxPriceCents {
            conditions.append("p.price_cents <= ?")
            arguments += [maximum]
        }
        if let seller = scan.filters.sellerId {
            conditions.append("p.seller_id = ?")
            arguments += [seller]
        }
        if let status = scan.filters.status.status {
            // Written as the partial indexes' own condition (a literal), so the planner may use them.
            conditions.append("p.status = '\(status.rawValue)'")
        }
        // Newest first reads the FTS index's own rowid order when there is a match.
        let orderBy: String
        switch scan.order {
        case .newest:
            if let after = scan.after {
                conditions.append("\(seq) < ?")
                arguments += [after.seq]
            }
            orderBy = "\(seq) DESC"
        case .priceAscending, .priceDescending:
            let ascending = scan.order == .priceAscending
            if let after = scan.after, let price = after.priceCents {
                conditions.append("(p.price_cents \(ascending ? ">" : "<") ? OR (p.price_cents = ? AND p.seq < ?))")
                arguments += [price, price, after.seq]
            }
            orderBy = "p.price_cents \(ascending ? "ASC" : "DESC"), p.seq DESC"
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        arguments += [scan.limit]
        return ("SELECT p.* FROM \(from)\(whereClause) ORDER BY \(orderBy) LIMIT ?", arguments)
    }
}
