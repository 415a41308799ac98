import BazaarAPI
import PostgresNIO
import Testing

@testable import BazaarPostgres
@testable import BazaarSearch
@testable import BazaarStorage

/// The statements a product scan sends to PostgreSQL, where how a condition is written decides
/// which index the planner reaches for.
@Suite("PostgreSQL product scan statements")
struct PostgresSearchQueryTests {
    static func scan(_ text: String, status: ProductStatusFilter = .available) throws -> ProductScan {
        ProductScan(
            text: .titleMatching(try #require(try SearchExpression.parse(text))),
            filters: ProductFilters(status: status), order: .newest, after: nil, limit: 21)
    }

    @Test("a rare search reads its matches through the text index and checks their status row by row")
    func rareSearchKeepsClearOfThePartialIndexes() throws {
        let rare = PostgresStore.query(for: try Self.scan("theodolite"), readEveryMatch: true).sql
        // A condition the partial indexes' predicate matches would let the planner AND a bitmap of
        // every available product (400 000 of a million with 60% sold) with the few matches.
        #expect(!rare.contains("status = 'available'"), "\(rare)")
        #expect(rare.contains("COALESCE(status, '') = 'available'"), "\(rare)")
        #expect(rare.contains("ORDER BY seq + 0 DESC"))
    }

    @Test("a common search and a plain list name the status as the partial indexes do")
    func commonSearchUsesThePartialIndexes() throws {
        let common = PostgresStore.query(for: try Self.scan("bike"), readEveryMatch: false).sql
        #expect(common.contains("status = 'available'") && common.contains("ORDER BY seq DESC"), "\(common)")
        let everything = PostgresStore.query(for: try Self.scan("bike", status: .all), readEveryMatch: true).sql
        #expect(
            !everything.contains("status =") && !everything.contains("COALESCE"),
            "all statuses need no condition: \(everything)")
    }
}
