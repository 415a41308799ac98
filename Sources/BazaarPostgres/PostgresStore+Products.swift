import BazaarAPI
import BazaarSearch
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Lists a product with its search vectors; its identity `seq` orders the product list.
    public func createProduct(_ product: Product) async throws {
        let vectors = try PostgresSearchVectors.vectors(title: product.title, description: product.description)
        try await database.rows(
            """
            INSERT INTO products (id, seller_id, title, description, price_cents, currency, created_at, search_vector, title_vector)
            VALUES (\(product.id), \(product.sellerId), \(product.title), \(product.description), \(product.priceCents),
                \(product.currency), \(StoredValues.millis(product.createdAt)), \(vectors.search)::TSVECTOR,
                \(vectors.title)::TSVECTOR)
            """)
    }

    /// The product with this id, or `nil`.
    public func product(id: String) async throws -> Product? {
        try await database.rows(
            "SELECT \(unescaped: Self.productColumns) FROM products WHERE id = \(id) AND NOT hidden"
        ).first
            .map(Self.product)
    }

    /// The product with this id as stored, or `nil`.
    public func productRecord(id: String) async throws -> ProductRecord? {
        guard
            let row = try await database.rows(
                "SELECT \(unescaped: Self.productColumns), buyer_id, version FROM products WHERE id = \(id) AND NOT hidden"
            ).first
        else { return nil }
        let cells = row.makeRandomAccess()
        return ProductRecord(
            product: try Self.product(cells, prefix: ""), buyerId: try cells["buyer_id"].decode(String?.self),
            version: try cells["version"].decode(Int64.self))
    }

    /// Whether the two users have a conversation about the product.
    public func hasConversation(about productId: String, between userId: String, and otherUserId: String)
        async throws -> Bool
    {
        let (low, high) = userId < otherUserId ? (userId, otherUserId) : (otherUserId, userId)
        let rows = try await database.rows(
            """
            SELECT EXISTS (SELECT 1 FROM conversations WHERE user_low = \(low) AND user_high = \(high)
                AND product_id = \(productId))
            """)
        return try rows.first?.decode(Bool.self) ?? false
    }

    /// One ordered run of products. With text, newest first: a rare search (by
    /// ``PostgresTermStatistics``) reads its every match through the GIN index and sorts them; a
    /// common one is left to the planner, which walks the list newest first and stops at the page's end.
    public func scanProducts(_ scan: ProductScan) async throws -> [ScannedProduct] {
        var readEveryMatch = false
        if case .newest = scan.order, let search = scan.search {
            readEveryMatch = try await termStatistics.isRare(search, database: database)
        }
        return try await rows(Self.query(for: scan, readEveryMatch: readEveryMatch))
    }

    private func rows(_ query: PostgresQuery) async throws -> [ScannedProduct] {
        try await database.rows(query).map { row in
            let cells = row.makeRandomAccess()
            return ScannedProduct(
                product: try Self.product(cells, prefix: ""), seq: try cells["seq"].decode(Int64.self))
        }
    }

    /// The statement for `scan`, every value bound (the search as a `tsquery` literal of terms);
    /// with `readEveryMatch`, sorted by an expression the `seq` index cannot give, so the planner
    /// reads the matches from the text index instead of walking the list.
    static func query(for scan: ProductScan, readEveryMatch: Bool = false) -> PostgresQuery {
        var sql = "SELECT \(productColumns) FROM products"
        // A suspended seller's listings are hidden from every list and search.
        var conditions: [String] = ["NOT hidden"]
        var bindings = PostgresBindings()
        func bind(_ value: some PostgresNonThrowingEncodable & Sendable) -> String {
            bindings.append(value)
            return "$\(bindings.count)"
        }
        switch scan.text {
        case .all:
            break
        case .matching(let search):
            conditions.append("search_vector @@ \(bind(search.tsquery))::TSQUERY")
        case .titleMatching(let search):
            // A title holding the required words means the whole text holds them too, so only
            // exclusions need the whole text. Both conditions left in, the planner would multiply
            // their selectivities as if independent, expect a fiftieth of the matches, and read
            // every one of them instead of walking to the page's end.
            conditions.append("title_vector @@ \(bind(search.requiredOnly.tsquery))::TSQUERY")
            if let alternative = search.alternatives.first, search.alternatives.count == 1 {
                if !alternative.excluded.isEmpty {
                    let excluded = SearchExpression(alternatives: alternative.excluded.map { .init(required: [$0]) })
                    conditions.append("NOT (search_vector @@ \(bind(excluded.tsquery))::TSQUERY)")
                }
            } else if search.hasExclusions {
                conditions.append("search_vector @@ \(bind(search.tsquery))::TSQUERY")
            }
        case .descriptionOnlyMatching(let search):
            conditions.append("search_vector @@ \(bind(search.tsquery))::TSQUERY")
            conditions.append("NOT (title_vector @@ \(bind(search.requiredOnly.tsquery))::TSQUERY)")
        }
        if let minimum = scan.filters.minPriceCents { conditions.append("price_cents >= \(bind(minimum))") }
        if let maximum = scan.filters.maxPriceCents { conditions.append("price_cents <= \(bind(maximum))") }
        if let seller = scan.filters.sellerId { conditions.append("seller_id = \(bind(seller))") }
        if let status = scan.filters.status.status {
            if readEveryMatch {
                // Written so that it cannot be matched to the partial indexes: the few matches are
                // read through the text index and their status checked row by row. Matched, the
                // planner ANDs the text index's bitmap with a bitmap of every available product
                // (400 000 of a million with 60% sold, 20 ms) to spare a few heap reads.
                conditions.append("COALESCE(status, '') = '\(status.rawValue)'")
            } else {
                // A literal, as the partial indexes write it, so the planner can match them.
                conditions.append("status = '\(status.rawValue)'")
            }
        }
        let orderBy: String
        switch scan.order {
        case .newest:
            if let after = scan.after { conditions.append("seq < \(bind(after.seq))") }
            orderBy = readEveryMatch ? "seq + 0 DESC" : "seq DESC"
        case .priceAscending, .priceDescending:
            let ascending = scan.order == .priceAscending
            if let after = scan.after, let price = after.priceCents {
                let p = bind(price)
                conditions.append(
                    "(price_cents \(ascending ? ">" : "<") \(p) OR (price_cents = \(p) AND seq < \(bind(after.seq))))")
            }
            orderBy = "price_cents \(ascending ? "ASC" : "DESC"), seq DESC"
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY \(orderBy) LIMIT \(bind(Int64(scan.limit)))"
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
