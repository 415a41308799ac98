import Testing

@testable import BazaarPostgres
@testable import BazaarSearch
@testable import BazaarServer

/// How a search scan on PostgreSQL judges a search rare enough to read its every match.
@Suite("PostgresTermStatistics")
struct PostgresTermStatisticsTests {
    static let million = PostgresTermStatistics.Snapshot(
        frequencies: ["bike": 0.1, "road": 0.02, "sofa": 0.004, "kid": 0.03], rows: 1_000_000, taken: .now)

    static func search(_ text: String) throws -> SearchExpression {
        try #require(try SearchExpression.parse(text))
    }

    @Test("an alternative matches no more products than its least common required term")
    func leastCommonTermBoundsAnAlternative() throws {
        #expect(Self.million.matches(try Self.search("bike")) == 100_000)
        #expect(Self.million.matches(try Self.search("road bike")) == 20_000)
        #expect(Self.million.matches(try Self.search("\"road bike\"")) == 20_000)
        #expect(Self.million.matches(try Self.search("bike sofa")) == 4_000)
        #expect(Self.million.matches(try Self.search("bike -kids")) == 100_000, "an exclusion never raises the bound")
    }

    @Test("alternatives add up, and a term outside the most common list counts as none")
    func alternativesAddAndUncommonTermsCountNone() throws {
        #expect(Self.million.matches(try Self.search("sofa or road")) == 24_000)
        #expect(Self.million.matches(try Self.search("theodolite")) == 0)
        #expect(Self.million.matches(try Self.search("bike theodolite")) == 0)
        #expect(Self.million.matches(try Self.search("theodolite or sofa")) == 4_000)
    }

    @Test("rare means at most rareMatches products; without statistics nothing is rare")
    func rareThreshold() throws {
        #expect(PostgresTermStatistics.rareMatches == 5_000)
        #expect(Self.million.isRare(try Self.search("sofa")))
        #expect(Self.million.isRare(try Self.search("theodolite")))
        #expect(!Self.million.isRare(try Self.search("road")))
        #expect(!Self.million.isRare(try Self.search("theodolite or road")))
        let unanalysed = PostgresTermStatistics.Snapshot(frequencies: nil, rows: 0, taken: .now)
        #expect(!unanalysed.isRare(try Self.search("theodolite")))
    }
}
