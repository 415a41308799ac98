import BazaarAPI
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
                \(product.currency), \(SQLiteStore.millis(product.createdAt)), \(vectors.search)::TSVECTOR,
                \(vectors.title)::TSVECTOR)
            """)
    }

    /// The product with this id, or `nil`.
    public func product(id: String) async throws -> Product? {
        try await database.rows("SELECT \(unescaped: Self.productColumns) FROM products WHERE id = \(id)").first
            .map(Self.product)
    }

    /// One ordered run of products; a text condition is answered by the GIN index on
    /// `search_vector` (or, for a common word, by walking `seq` backwards, as the planner judges).
    public func scanProducts(_ scan: ProductScan) async throws -> [ScannedProduct] {
        guard case .newest = scan.order, scan.hasText else { return try await rows(Self.query(for: scan)) }
        // Newest first with text: in windows of `seq` growing from the newest (or the position)
        // backwards. The planner cannot know how rare a word is, and walking `seq` backwards
        // through a million rows for a rare one takes tens of milliseconds; a window lets the
        // GIN index answer for rare words while a common word is done in the first, small window.
        guard var high = try await newestSeq(before: scan.after?.seq) else { return [] }
        var window: Int64 = 2_000
        var found: [ScannedProduct] = []
        while found.count < scan.limit, high > 0 {
            let low = max(0, high - window)
            var windowed = scan
            windowed.limit = scan.limit - found.count
            found += try await rows(Self.query(for: windowed, seqWindow: low...high))
            high = low - 1
            window *= 4
        }
        return found
    }

    /// The highest `seq` below `position` (or at all), if any product is there.
    private func newestSeq(before position: Int64?) async throws -> Int64? {
        try await database.rows("SELECT MAX(seq) FROM products WHERE (\(position)::BIGINT IS NULL OR seq < \(position))")
            .first?.decode(Int64?.self)
    }

    private func rows(_ query: PostgresQuery) async throws -> [ScannedProduct] {
        try await database.rows(query).map { row in
            let cells = row.makeRandomAccess()
            return ScannedProduct(product: try Self.product(cells, prefix: ""), seq: try cells["seq"].decode(Int64.self))
        }
    }

    /// The statement for `scan`, every value bound (the search as a `tsquery` literal of terms);
    /// with `seqWindow`, only products in that range of `seq`, sorted without the `seq` index so
    /// the planner filters by the text index first.
    static func query(for scan: ProductScan, seqWindow: ClosedRange<Int64>? = nil) -> PostgresQuery {
        var sql = "SELECT \(productColumns) FROM products"
        var conditions: [String] = []
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
            conditions.append("search_vector @@ \(bind(search.tsquery))::TSQUERY")
            conditions.append("title_vector @@ \(bind(search.requiredOnly.tsquery))::TSQUERY")
        case .descriptionOnlyMatching(let search):
            conditions.append("search_vector @@ \(bind(search.tsquery))::TSQUERY")
            conditions.append("NOT (title_vector @@ \(bind(search.requiredOnly.tsquery))::TSQUERY)")
        }
        if let minimum = scan.filters.minPriceCents { conditions.append("price_cents >= \(bind(minimum))") }
        if let maximum = scan.filters.maxPriceCents { conditions.append("price_cents <= \(bind(maximum))") }
        if let seller = scan.filters.sellerId { conditions.append("seller_id = \(bind(seller))") }
        let orderBy: String
        switch scan.order {
        case .newest:
            if let seqWindow {
                conditions.append("seq BETWEEN \(bind(seqWindow.lowerBound)) AND \(bind(seqWindow.upperBound))")
                orderBy = "seq + 0 DESC"
            } else {
                if let after = scan.after { conditions.append("seq < \(bind(after.seq))") }
                orderBy = "seq DESC"
            }
        case .priceAscending, .priceDescending:
            let ascending = scan.order == .priceAscending
            if let after = scan.after, let price = after.priceCents {
                let p = bind(price)
                conditions.append("(price_cents \(ascending ? ">" : "<") \(p) OR (price_cents = \(p) AND seq < \(bind(after.seq))))")
            }
            orderBy = "price_cents \(ascending ? "ASC" : "DESC"), seq DESC"
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY \(orderBy) LIMIT \(bind(Int64(scan.limit)))"
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
