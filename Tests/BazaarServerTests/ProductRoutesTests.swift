import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Product routes")
struct ProductRoutesTests {
    @Test func creatingAProductMakesTheCallerItsSeller() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let response = try await client.post(
                APIRoutes.createProduct.template,
                CreateProductRequest(title: "Bike", description: "Blue", priceCents: 0, currency: "EUR"),
                token: ada.tokens.accessToken)
            expectStatus(response, 201)
            let product = try response.decode(Product.self)
            #expect(product.sellerId == ada.user.id)
            let fetched = try await client.get(APIRoutes.product.path(product.id))
            expectStatus(fetched, 200)
            #expect(try fetched.decode(Product.self) == product)
        }
    }

    @Test(arguments: [
        CreateProductRequest(title: "", description: "", priceCents: 1, currency: "EUR"),
        CreateProductRequest(
            title: String(repeating: "t", count: 121), description: "", priceCents: 1, currency: "EUR"),
        CreateProductRequest(title: "Bike", description: "", priceCents: -1, currency: "EUR"),
        CreateProductRequest(title: "Bike", description: "", priceCents: 1, currency: "eur"),
        CreateProductRequest(title: "Bike", description: "", priceCents: 1, currency: "EURO"),
    ])
    func productBreakingAFieldRuleIs422(request: CreateProductRequest) async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            expectError(
                try await client.post(APIRoutes.createProduct.template, request, token: ada.tokens.accessToken), 422,
                code: "invalid_field")
        }
    }

    @Test func creatingWithoutSigningInIs401() async throws {
        try await BazaarTestHarness.withServer { client in
            let response = try await client.post(
                APIRoutes.createProduct.template,
                CreateProductRequest(title: "Bike", description: "", priceCents: 1, currency: "EUR"))
            expectError(response, 401)
        }
    }

    @Test func unknownProductIs404() async throws {
        try await BazaarTestHarness.withServer { client in
            expectError(try await client.get(APIRoutes.product.path("nothing")), 404, code: "not_found")
        }
    }

    @Test func limitMustBe1To100AndForeignCursorsAre400() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            _ = try await client.createProduct("Bike", token: ada.tokens.accessToken)
            for good in ["1", "100"] {
                expectStatus(try await client.get(APIRoutes.products.template + "?limit=\(good)"), 200)
            }
            for bad in ["0", "101", "-1", "ten"] {
                expectError(
                    try await client.get(APIRoutes.products.template + "?limit=\(bad)"), 422, code: "invalid_field")
            }
            // An empty cursor is the first page, like no cursor.
            let emptyCursor = try await client.get(APIRoutes.products.template + "?cursor=")
            expectStatus(emptyCursor, 200)
            #expect(try emptyCursor.decode(Page<Product>.self).items.count == 1)
            for cursor in ["garbage", "m.1", "p.0", "p.01", "p.1.2", "p.1234567890123456789", "%FF", "djE6cDox"] {
                expectError(
                    try await client.get(APIRoutes.products.template + "?cursor=\(cursor)"), 400, code: "invalid_cursor"
                )
            }
        }
    }

    @Test func pagesEndWithANullCursorExactlyAtTheLastItem() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            for index in 1...4 { _ = try await client.createProduct("P\(index)", token: ada.tokens.accessToken) }
            let exact = try await client.get(APIRoutes.products.template + "?limit=4").decode(Page<Product>.self)
            #expect(exact.items.count == 4)
            #expect(exact.nextCursor == nil)
            let short = try await client.get(APIRoutes.products.template + "?limit=3").decode(Page<Product>.self)
            #expect(short.items.map(\.title) == ["P4", "P3", "P2"])
            let cursor = try #require(short.nextCursor)
            let last = try await client.get(APIRoutes.products.template + "?limit=3&cursor=\(cursor)").decode(
                Page<Product>.self)
            #expect(last.items.map(\.title) == ["P1"])
            #expect(last.nextCursor == nil)
        }
    }

    @Test func paginationIsStableWhileProductsAreAdded() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            var original: [String] = []
            for index in 1...7 {
                original.insert(try await client.createProduct("Old \(index)", token: ada.tokens.accessToken).id, at: 0)
            }
            var seen: [String] = []
            var cursor: String?
            var added = 0
            repeat {
                let query = "?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.get(APIRoutes.products.template + query).decode(Page<Product>.self)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
                // New listings arrive between page loads.
                added += 1
                _ = try await client.createProduct("New \(added)", token: ada.tokens.accessToken)
            } while cursor != nil
            #expect(seen == original)
            #expect(Set(seen).count == seen.count)
        }
    }

    @Test func searchMatchesTitleOrDescriptionInAnyCaseAndASearchWithoutWordsIs422() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let token = ada.tokens.accessToken
            _ = try await client.createProduct("Road Bike", token: token)
            _ = try await client.createProduct("Lamp", token: token)
            _ = try await client.post(
                APIRoutes.createProduct.template,
                CreateProductRequest(title: "Helmet", description: "fits any bike", priceCents: 5, currency: "EUR"),
                token: token)
            _ = try await client.createProduct("100% wool", token: token)
            let bikes = try await client.get(APIRoutes.products.template + "?query=BIKE").decode(Page<Product>.self)
            #expect(bikes.items.map(\.title) == ["Road Bike", "Helmet"])
            for noWords in ["%25", "-%22%22", "or", "-wool"] {
                expectError(
                    try await client.get(APIRoutes.products.template + "?query=\(noWords)"), 422, code: "invalid_field")
            }
            let none = try await client.get(APIRoutes.products.template + "?query=sofa").decode(Page<Product>.self)
            #expect(none.items.isEmpty)
            #expect(none.nextCursor == nil)
        }
    }

    @Test func publicReadsCarryETagAndCacheControlAndAnswer304WhenUnchanged() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let product = try await client.createProduct("Bike", token: ada.tokens.accessToken)
            for path in [APIRoutes.products.template, APIRoutes.product.path(product.id)] {
                let first = try await client.get(path)
                expectStatus(first, 200)
                let etag = try #require(first.header("ETag"))
                #expect(first.header("Cache-Control")?.contains("public") == true)
                let again = try await client.get(path, headers: [("If-None-Match", etag)])
                expectStatus(again, 304)
                #expect(again.body.isEmpty)
                #expect(again.header("ETag") == etag)
                let stale = try await client.get(path, headers: [("If-None-Match", "\"something-else\"")])
                expectStatus(stale, 200)
            }
            // A new product changes the list, so its ETag changes.
            let before = try await client.get(APIRoutes.products.template).header("ETag")
            _ = try await client.createProduct("Lamp", token: ada.tokens.accessToken)
            let after = try await client.get(APIRoutes.products.template).header("ETag")
            #expect(before != after)
        }
    }
}
