import BazaarSearch
import BazaarStorage
import PostgresNIO
import Synchronization

/// How common search terms are among the products, read from PostgreSQL's own statistics on
/// `search_vector` (`pg_stats.most_common_elems`, which ANALYZE and autovacuum keep) and cached
/// for a minute.
///
/// A search scan needs one fact the planner gets wrong: how many products match. A rare search
/// is read best by fetching its every match through the GIN index and sorting them; a common one
/// by walking the list newest first until the page is full. The planner estimates a term it does
/// not count among the most common at half the least common one's frequency (7 000 products of a
/// million here), and so walks the whole list for a word that three products hold.
final class PostgresTermStatistics: Sendable {
    /// Statistics as read at one time.
    struct Snapshot: Sendable {
        /// The share of products holding each of the most common terms; `nil` before the table
        /// has ever been analysed.
        var frequencies: [String: Double]?
        /// How many products the statistics describe.
        var rows: Double
        /// When they were read.
        var taken: ContinuousClock.Instant

        /// At most how many products can match `search`: an alternative matches no more products
        /// than its least common required term, and a term outside the most common list counts
        /// as none (its matches are below ANALYZE's threshold: a few thousand at most).
        func matches(_ search: SearchExpression) -> Double {
            search.alternatives.reduce(0) { total, alternative in
                let terms = alternative.required.flatMap(\.terms)
                return total + (terms.map { (frequencies?[$0] ?? 0) * rows }.min() ?? rows)
            }
        }

        /// Whether `search` matches at most ``rareMatches`` products; never before the table has
        /// statistics (the planner then decides alone).
        func isRare(_ search: SearchExpression) -> Bool {
            frequencies != nil && matches(search) <= PostgresTermStatistics.rareMatches
        }
    }

    /// A search matching at most this many products is read whole through the index.
    static let rareMatches = 5_000.0
    /// How long a snapshot is used before it is read again.
    static let maximumAge = Duration.seconds(60)

    private let cached = Mutex<Snapshot?>(nil)

    /// Whether `search` matches few enough products to read them all; `false` while PostgreSQL has
    /// no statistics on the table yet (then the planner decides alone).
    func isRare(_ search: SearchExpression, database: PostgresDatabase) async throws -> Bool {
        try await current(database).isRare(search)
    }

    private func current(_ database: PostgresDatabase) async throws -> Snapshot {
        let now = ContinuousClock.now
        if let snapshot = cached.withLock({ $0 }), now - snapshot.taken < Self.maximumAge { return snapshot }
        let rows = try await database.rows(
            """
            SELECT s.most_common_elems::TEXT::TEXT[], s.most_common_elem_freqs,
                (SELECT reltuples::FLOAT8 FROM pg_class WHERE oid = 'products'::REGCLASS)
            FROM pg_stats s
            WHERE s.schemaname = current_schema() AND s.tablename = 'products' AND s.attname = 'search_vector'
            """)
        var snapshot = Snapshot(frequencies: nil, rows: 0, taken: now)
        if let row = rows.first {
            let (terms, frequencies, count) = try row.decode(([String]?, [Float]?, Double).self)
            // The frequencies list ends with three summary numbers; zip stops at the last term.
            snapshot.frequencies = Dictionary(
                zip(terms ?? [], (frequencies ?? []).map(Double.init)), uniquingKeysWith: max)
            snapshot.rows = max(count, 0)
        }
        cached.withLock { $0 = snapshot }
        return snapshot
    }
}
