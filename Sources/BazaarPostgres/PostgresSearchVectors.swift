import BazaarSearch
import BazaarStorage
import Logging
import PostgresNIO

/// The `tsvector`s of a product on PostgreSQL, made from ``SearchTokenizer`` terms so they hold
/// exactly what SQLite's FTS5 index holds.
package enum PostgresSearchVectors {
    /// The vector of title and description together, and of the title alone.
    package static func vectors(title: String, description: String) throws -> (search: String, title: String) {
        let terms = try SearchTokenizer.shared.terms(in: [title, description])
        return (
            TSVectorLiteral.vector(title: terms[0], description: terms[1]),
            TSVectorLiteral.vector(title: terms[0], description: [])
        )
    }

    /// Products read and written per round of ``backfill(_:logger:)``.
    package static let backfillBatch = 1_000

    /// Fills the vectors of every product that has none (those listed before search existed).
    package static func backfill(_ connection: PostgresConnection, logger: Logger) async throws {
        var filled = 0
        while true {
            let rows = try await connection.query(
                """
                SELECT id, title, description FROM products WHERE search_vector IS NULL
                ORDER BY seq LIMIT \(backfillBatch)
                """, logger: logger
            ).collect()
            guard !rows.isEmpty else { break }
            var ids: [String] = []
            var searchVectors: [String] = []
            var titleVectors: [String] = []
            for row in rows {
                let (id, title, description) = try row.decode((String, String, String).self)
                let vectors = try vectors(title: title, description: description)
                ids.append(id)
                searchVectors.append(vectors.search)
                titleVectors.append(vectors.title)
            }
            try await connection.query(
                """
                UPDATE products SET search_vector = v.search::TSVECTOR, title_vector = v.title::TSVECTOR
                FROM unnest(\(ids)::TEXT[], \(searchVectors)::TEXT[], \(titleVectors)::TEXT[]) AS v(id, search, title)
                WHERE products.id = v.id
                """, logger: logger)
            filled += rows.count
        }
        if filled > 0 { logger.notice("filled search vectors", metadata: ["products": "\(filled)"]) }
    }
}
