import HummingbirdCore
import Testing

@testable import BazaarServer

/// ``ParsedQuery`` reads a query exactly as Hummingbird's `uri.queryParameters` does.
@Suite("ParsedQuery")
struct ParsedQueryTests {
    static let queries = [
        "", "limit=20", "limit=20&cursor=abc", "limit=1&limit=2", "query=red%20bike&sort=newest",
        "query=a+b", "query=%E2%82%AC5", "query=%e2%82%ac", "query=%zz", "query=%4", "query=50%", "query=%%41",
        "query=%FF%FE", "query=", "query", "=value", "a&&b=1", "b=1&", "a&&", "&b=2", "sellerId=u%2D1&status=sold",
        "minPriceCents=100&maxPriceCents=2000&sort=price-ascending&query=lamp&cursor=",
        "token=eyJ.abc.def", "q=x=y", "caf%C3%A9=1", "query=%00",
    ]
    static let names = [
        "limit", "cursor", "query", "sort", "a", "b", "", "sellerId", "status", "minPriceCents", "maxPriceCents",
        "token", "q", "caf%C3%A9", "café", "missing",
    ]

    @Test("every name reads the value Hummingbird's queryParameters gives", arguments: queries)
    func readsAsHummingbirdDoes(query: String) {
        let hummingbird = URI(query.isEmpty ? "/v1/products" : "/v1/products?" + query).queryParameters
        let parsed = ParsedQuery(query: query)
        for name in Self.names {
            #expect(parsed[name] == hummingbird[name[...]], "\(name) in \(query)")
        }
    }

    @Test("values are decoded; a malformed escape keeps the value as sent; the first of a repeated name counts")
    func decoding() {
        let parsed = ParsedQuery(query: "query=red%20bike&bad=%zz&limit=1&limit=2&plus=a+b&flag")
        #expect(parsed["query"] == "red bike")
        #expect(parsed["bad"] == "%zz")
        #expect(parsed["limit"] == "1")
        #expect(parsed["plus"] == "a+b")
        #expect(parsed["flag"] == "")
        #expect(parsed["absent"] == nil)
        #expect(ParsedQuery(query: nil)["limit"] == nil)
    }
}
