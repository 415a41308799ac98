import BazaarAPI
import Foundation
import TestSupport
import Testing

/// `GET /v1/products` with search, filters and orders, over HTTP on every backend, against the
/// same catalogue (``SearchFixture``): both backends must give exactly these answers.
@Suite("Product search on every backend")
struct ProductSearchTests {
    /// Every page of `parameters`, `limit` at a time, following the cursors.
    static func allPages(_ client: BazaarTestClient, _ parameters: String, limit: Int = 7) async throws -> [Product] {
        var items: [Product] = []
        var cursor: String?
        var pages = 0
        repeat {
            var query = parameters + "&limit=\(limit)"
            if let cursor {
                query += "&cursor=\(cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor)"
            }
            let response = try await client.get(APIRoutes.products.template + "?" + query)
            expectStatus(response, 200)
            let page = try response.decode(Page<Product>.self)
            #expect(page.items.count <= limit)
            items += page.items
            cursor = page.nextCursor
            pages += 1
            try #require(pages < 200, "the cursors never end")
        } while cursor != nil
        return items
    }

    static func titles(_ products: [Product]) -> [String] { products.map(\.title) }

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    @Test(
        "a word finds every form of it, title matches first, newest first within each, across pages",
        arguments: SearchFixture.Backend.all)
    func aWordFindsEveryFormRankedAndPagedWithoutGapsOrRepeats(backend: SearchFixture.Backend) async throws {
        try await SearchFixture.withServer(on: backend) { client, loaded in
            for (typed, item) in [("lamps", "lamp"), ("Table", "table"), ("VASE", "vase")] {
                let expected = SearchFixture.expected(item: item, in: loaded)
                #expect(expected.count > 40, "the fixture gives \(item) enough matches to page through")
                let found = try await Self.allPages(client, "query=\(typed)")
                #expect(found == expected, "\(typed)")
                #expect(Set(found.map(\.id)).count == found.count)
            }
        }
    }

    @Test(
        "stems, phrases, exclusions, or, and accents find the expected products in order",
        arguments: SearchFixture.Backend.all)
    func searchSyntaxFindsTheExpectedTopHits(backend: SearchFixture.Backend) async throws {
        try await SearchFixture.withServer(on: backend) { client, loaded in
            let cases: [(String, [String])] = [
                ("bikes", ["roadBike", "racingBike", "mountainBikes", "kidsBike", "pump", "helmet"]),
                ("road bike", ["roadBike", "racingBike", "pump", "kidsBike"]),
                ("\"road bike\"", ["roadBike", "pump"]),
                ("road bike -kids", ["roadBike", "pump"]),
                ("road -bike", ["roadAtlas"]),
                ("helmet or pump", ["pump", "helmet"]),
                ("kids or road -bike", ["roadAtlas", "racingBike", "kidsBike"]),
                ("CAFÉ", ["cafeChair"]),
                ("cafe chairs", ["cafeChair"]),
                ("bicycle", []),
            ]
            for (text, names) in cases {
                let found = try await Self.allPages(client, "query=\(Self.encoded(text))", limit: 3)
                #expect(Self.titles(found) == names.map { loaded.names[$0]!.title }, "\(text)")
            }
        }
    }

    @Test("price range and seller filters narrow a search and the plain list", arguments: SearchFixture.Backend.all)
    func filtersNarrowSearchAndList(backend: SearchFixture.Backend) async throws {
        try await SearchFixture.withServer(on: backend) { client, loaded in
            let lamps = SearchFixture.expected(item: "lamp", in: loaded)
            let cheap = try await Self.allPages(client, "query=lamp&minPriceCents=5000&maxPriceCents=9000")
            #expect(cheap == lamps.filter { (5000...9000).contains($0.priceCents) })
            #expect(!cheap.isEmpty)
            let seller = loaded.sellerIds[1]
            let theirs = try await Self.allPages(client, "sellerId=\(seller)&maxPriceCents=3000", limit: 10)
            #expect(theirs == loaded.products.reversed().filter { $0.sellerId == seller && $0.priceCents <= 3000 })
            #expect(!theirs.isEmpty)
            let exact = try await Self.allPages(client, "query=bike&minPriceCents=30000&maxPriceCents=30000")
            #expect(Self.titles(exact) == [loaded.names["mountainBikes"]!.title])
        }
    }

    @Test(
        "price orders page through every match cheapest or dearest first, newest first on a tie",
        arguments: StorageKind.available)
    func priceOrdersPageInOrder(storage: StorageKind) async throws {
        try await SearchFixture.withServer(on: storage) { client, loaded in
            let newestFirst = Array(loaded.products.reversed())
            func byPrice(_ products: [Product], ascending: Bool) -> [Product] {
                // `sorted` is stable, so equal prices keep newest first.
                products.sorted { ascending ? $0.priceCents < $1.priceCents : $0.priceCents > $1.priceCents }
            }
            let lamps = SearchFixture.expected(item: "lamp", in: loaded)
            let matching = newestFirst.filter { lamps.contains($0) }
            let cheapestLamps = try await Self.allPages(client, "query=lamp&sort=price_asc")
            #expect(cheapestLamps == byPrice(matching, ascending: true))
            let dearestLamps = try await Self.allPages(client, "query=lamp&sort=price_desc")
            #expect(dearestLamps == byPrice(matching, ascending: false))
            let cheapest = try await Self.allPages(client, "sort=price_asc", limit: 50)
            #expect(cheapest == byPrice(newestFirst, ascending: true))
            let newestLamps = try await Self.allPages(client, "query=lamp&sort=newest")
            #expect(newestLamps == matching)
            let relevanceWithoutText = try await Self.allPages(client, "sort=relevance", limit: 50)
            #expect(relevanceWithoutText == newestFirst, "relevance without text is newest")
        }
    }

    @Test(
        "products listed while someone pages a ranked search are neither repeated nor skipped",
        arguments: StorageKind.available)
    func rankedPagesStayStableWhileProductsAreListed(storage: StorageKind) async throws {
        try await SearchFixture.withServer(on: storage) { client, loaded in
            let expected = SearchFixture.expected(item: "rug", in: loaded)
            let seller = try await client.register("dora")
            var seen: [Product] = []
            var cursor: String?
            repeat {
                var path = APIRoutes.products.template + "?query=rug&limit=6"
                if let cursor { path += "&cursor=\(cursor)" }
                let page = try await client.get(path).decode(Page<Product>.self)
                seen += page.items
                cursor = page.nextCursor
                // A new rug in its title (first tier) and one only in its description (second tier).
                _ = try await client.createProduct("Persian rug \(seen.count)", token: seller.tokens.accessToken)
            } while cursor != nil
            #expect(seen == expected)
        }
    }

    @Test(
        "bad parameters are 422 naming the parameter; a cursor of another order is 400",
        arguments: StorageKind.available)
    func badParametersAreRefused(storage: StorageKind) async throws {
        try await SearchFixture.withServer(on: storage) { client, _ in
            for bad in [
                "sort=cheapest", "minPriceCents=-1", "maxPriceCents=ten", "minPriceCents=2000000000000",
                "minPriceCents=500&maxPriceCents=100", "sellerId=not-an-id", "query=-kids", "query=%21%21",
            ] {
                expectError(try await client.get(APIRoutes.products.template + "?" + bad), 422, code: "invalid_field")
            }
            let first = try await client.get(APIRoutes.products.template + "?query=lamp&limit=2").decode(
                Page<Product>.self)
            let cursor = try #require(first.nextCursor)
            #expect(cursor.hasPrefix("r.1."))
            for order in ["sort=newest", "sort=price_asc", "sort=price_desc"] {
                expectError(
                    try await client.get(APIRoutes.products.template + "?query=lamp&\(order)&cursor=\(cursor)"), 400,
                    code: "invalid_cursor")
            }
            for forged in ["r.2.5", "r.1.0", "a.-1.3", "d.5", "p.1.2"] {
                expectError(
                    try await client.get(APIRoutes.products.template + "?query=lamp&cursor=\(forged)"), 400,
                    code: "invalid_cursor")
            }
        }
    }
}
