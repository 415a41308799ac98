import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// A listing's life over HTTP, on both engines: edits, status, taking down, and what each does to
/// the lists, search and conversations.
@Suite("Listings have a life")
struct ListingLifeTests {
    @Test(arguments: StorageKind.available)
    func theSellerEditsAListingAndEveryListSeesTheChange(storage: StorageKind) async throws {
        let clock = TestClock()
        try await BazaarTestHarness.withServer(on: storage, clock: clock) { client in
            let ada = try await client.register("ada")
            let bike = try await client.createProduct("Blue bike", token: ada.tokens.accessToken, priceCents: 12_000)
            // Read once, so the lists and the product sit in the server's cache before the change.
            _ = try await client.get(APIRoutes.products.template + "?query=bike")
            _ = try await client.get(APIRoutes.product.path(bike.id))
            clock.advance(by: .seconds(60))
            let edited = try await client.send(
                .PATCH, APIRoutes.updateProduct.path(bike.id),
                json: UpdateProductRequest(title: "Red tandem", description: "For two", priceCents: 9_900),
                token: ada.tokens.accessToken)
            expectStatus(edited, 200)
            let product = try edited.decode(Product.self)
            #expect(product.title == "Red tandem" && product.priceCents == 9_900)
            #expect(product.description == "For two" && product.currency == bike.currency)
            #expect(product.updatedAt > bike.updatedAt && product.createdAt == bike.createdAt)
            #expect(try await client.get(APIRoutes.product.path(bike.id)).decode(Product.self) == product)
            #expect(try await client.productTitles("?query=bike") == [])
            #expect(try await client.productTitles("?query=tandem") == ["Red tandem"])
            #expect(try await client.productTitles("?maxPriceCents=10000") == ["Red tandem"])
        }
    }

    @Test(arguments: StorageKind.available)
    func onlyTheSellerMayChangeAListingAndEachFieldKeepsItsRule(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let bike = try await client.createProduct("Bike", token: ada.tokens.accessToken)
            let path = APIRoutes.updateProduct.path(bike.id)
            let change = UpdateProductRequest(priceCents: 1)
            expectError(try await client.send(.PATCH, path, json: change), 401)
            // Someone else's listing answers as one that does not exist.
            let foreign = try await client.send(.PATCH, path, json: change, token: bob.tokens.accessToken)
            let missing = try await client.send(
                .PATCH, APIRoutes.updateProduct.path("00000000-0000-4000-8000-000000000000"), json: change,
                token: bob.tokens.accessToken)
            expectError(foreign, 404, code: "not_found")
            #expect(foreign.text == missing.text)
            expectError(
                try await client.send(
                    .PUT, APIRoutes.changeProductStatus.path(bike.id),
                    json: ChangeProductStatusRequest(status: .available), token: bob.tokens.accessToken), 404)
            expectError(try await client.send(.DELETE, path, token: bob.tokens.accessToken), 404)
            for bad in [
                UpdateProductRequest(title: ""), UpdateProductRequest(priceCents: -1),
                UpdateProductRequest(currency: "eur"),
                UpdateProductRequest(description: String(repeating: "d", count: 5001)),
            ] {
                expectError(
                    try await client.send(.PATCH, path, json: bad, token: ada.tokens.accessToken), 422,
                    code: "invalid_field")
            }
            #expect(try await client.get(APIRoutes.product.path(bike.id)).decode(Product.self) == bike)
        }
    }

    @Test(arguments: StorageKind.available)
    func aReservationNeedsABuyerInAConversationAboutTheProductAndLeavesTheDefaultList(storage: StorageKind)
        async throws
    {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let cyd = try await client.register("cyd")
            let bike = try await client.createProduct("Bike", token: ada.tokens.accessToken)
            _ = try await client.startConversation(with: ada.user.id, productId: bike.id, token: bob.tokens.accessToken)
            // Cyd talks to Ada, but not about the bike.
            _ = try await client.startConversation(with: ada.user.id, token: cyd.tokens.accessToken)
            let status = APIRoutes.changeProductStatus.path(bike.id)
            for (request, code) in [
                (ChangeProductStatusRequest(status: .reserved, buyerId: cyd.user.id), "invalid_buyer"),
                (ChangeProductStatusRequest(status: .reserved, buyerId: ada.user.id), "invalid_buyer"),
                (ChangeProductStatusRequest(status: .reserved), "invalid_field"),
                (ChangeProductStatusRequest(status: .available, buyerId: bob.user.id), "invalid_field"),
            ] {
                expectError(
                    try await client.send(.PUT, status, json: request, token: ada.tokens.accessToken), 422, code: code)
            }
            let reserved = try await client.send(
                .PUT, status, json: ChangeProductStatusRequest(status: .reserved, buyerId: bob.user.id),
                token: ada.tokens.accessToken)
            expectStatus(reserved, 200)
            #expect(try reserved.decode(Product.self).status == .reserved)
            #expect(try await client.productTitles("") == [])
            #expect(try await client.productTitles("?query=bike") == [])
            #expect(try await client.productTitles("?status=reserved") == ["Bike"])
            #expect(try await client.productTitles("?status=all&sellerId=\(ada.user.id)") == ["Bike"])
            #expect(try await client.productTitles("?status=sold") == [])
            expectError(try await client.get(APIRoutes.products.template + "?status=gone"), 422, code: "invalid_field")
            // Available again: back in the list and search.
            let released = try await client.send(
                .PUT, status, json: ChangeProductStatusRequest(status: .available), token: ada.tokens.accessToken)
            #expect(try released.decode(Product.self).status == .available)
            #expect(try await client.productTitles("?query=bike") == ["Bike"])
        }
    }

    @Test(arguments: StorageKind.available)
    func soldIsFinal(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let bike = try await client.createProduct("Bike", token: ada.tokens.accessToken)
            _ = try await client.startConversation(with: ada.user.id, productId: bike.id, token: bob.tokens.accessToken)
            let status = APIRoutes.changeProductStatus.path(bike.id)
            let sold = try await client.send(
                .PUT, status, json: ChangeProductStatusRequest(status: .sold, buyerId: bob.user.id),
                token: ada.tokens.accessToken)
            expectStatus(sold, 200)
            for request in [
                ChangeProductStatusRequest(status: .available),
                ChangeProductStatusRequest(status: .sold, buyerId: bob.user.id),
            ] {
                expectError(
                    try await client.send(.PUT, status, json: request, token: ada.tokens.accessToken), 409,
                    code: "product_sold")
            }
            expectError(
                try await client.send(
                    .PATCH, APIRoutes.updateProduct.path(bike.id), json: UpdateProductRequest(priceCents: 1),
                    token: ada.tokens.accessToken), 409, code: "product_sold")
            #expect(try await client.get(APIRoutes.product.path(bike.id)).decode(Product.self).status == .sold)
        }
    }

    @Test(arguments: StorageKind.available)
    func aListingTakenDownIsGoneButItsConversationsStay(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let bike = try await client.createProduct("Bike", token: ada.tokens.accessToken)
            let photo = try await client.send(
                .POST, APIRoutes.addProductPhoto.path(bike.id), rawBody: ProductPhotoRoutesTests.png,
                contentType: "image/png",
                token: ada.tokens.accessToken)
            expectStatus(photo, 201)
            let photoURL = try #require(try photo.decode(Product.self).photoURLs.first)
            let conversation = try await client.startConversation(
                with: ada.user.id, productId: bike.id, token: bob.tokens.accessToken)
            expectStatus(
                try await client.sendMessage("Still for sale?", in: conversation.id, token: bob.tokens.accessToken), 201
            )
            expectStatus(
                try await client.send(.DELETE, APIRoutes.deleteProduct.path(bike.id), token: ada.tokens.accessToken),
                204)
            expectError(try await client.get(APIRoutes.product.path(bike.id)), 404)
            expectStatus(try await client.get(photoURL), 404)
            #expect(try await client.productTitles("?status=all") == [])
            #expect(try await client.productTitles("?query=bike&status=all") == [])
            let kept = try await client.get(APIRoutes.conversation.path(conversation.id), token: bob.tokens.accessToken)
            #expect(try kept.decode(Conversation.self).product == nil)
            let messages = try await client.get(
                APIRoutes.messages.path(conversation.id), token: bob.tokens.accessToken)
            #expect(try messages.decode(Page<Message>.self).items.map(\.body) == ["Still for sale?"])
            // Gone means gone, for its seller too.
            expectError(
                try await client.send(.DELETE, APIRoutes.deleteProduct.path(bike.id), token: ada.tokens.accessToken),
                404)
        }
    }

    @Test(arguments: StorageKind.available)
    func editsRacingASaleEndEitherBeforeItOrRefusedAfterIt(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let bike = try await client.createProduct("Bike", token: ada.tokens.accessToken, priceCents: 10_000)
            _ = try await client.startConversation(with: ada.user.id, productId: bike.id, token: bob.tokens.accessToken)
            let statuses = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for price in 0..<12 {
                    group.addTask {
                        let answer = try await client.send(
                            .PATCH, APIRoutes.updateProduct.path(bike.id),
                            json: UpdateProductRequest(priceCents: price),
                            token: ada.tokens.accessToken)
                        return ("edit", answer.status)
                    }
                }
                group.addTask {
                    let answer = try await client.send(
                        .PUT, APIRoutes.changeProductStatus.path(bike.id),
                        json: ChangeProductStatusRequest(status: .sold, buyerId: bob.user.id),
                        token: ada.tokens.accessToken)
                    return ("sale", answer.status)
                }
                return try await group.reduce(into: [(String, Int)]()) { $0.append($1) }
            }
            #expect(statuses.contains { $0 == ("sale", 200) })
            // Thirteen changes at once, fewer than the service's attempts: each is decided, none left undecided (503).
            #expect(statuses.allSatisfy { $0.0 == "sale" || $0.1 == 200 || $0.1 == 409 }, "\(statuses)")
            let final = try await client.get(APIRoutes.product.path(bike.id)).decode(Product.self)
            #expect(final.status == .sold)
        }
    }
}

extension BazaarTestClient {
    /// The titles of the first page of `GET /v1/products` with `query` (from `?`, or empty).
    fileprivate func productTitles(_ query: String) async throws -> [String] {
        let response = try await get(APIRoutes.products.template + query)
        #expect(response.status == 200, "body: \(response.text)")
        return try response.decode(Page<Product>.self).items.map(\.title)
    }
}
