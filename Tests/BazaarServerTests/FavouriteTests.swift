import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// Saving products over HTTP, on both engines: idempotent saves, the count, the list, and what
/// savers are told.
@Suite("Favourites")
struct FavouriteTests {
    @Test(arguments: StorageKind.available)
    func savingIsIdempotentAndTheCountFollows(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let cyd = try await client.register("cyd")
            let bike = try await client.createProduct("Bike", token: ada.tokens.accessToken)
            let lamp = try await client.createProduct("Lamp", token: ada.tokens.accessToken)
            for _ in 0..<2 { expectStatus(try await client.save(bike, as: bob), 204) }
            expectStatus(try await client.save(lamp, as: bob), 204)
            expectStatus(try await client.save(bike, as: cyd), 204)
            #expect(try await client.get(APIRoutes.product.path(bike.id)).decode(Product.self).favouriteCount == 2)
            #expect(try await client.saved(as: bob).map(\.title) == ["Lamp", "Bike"])
            for _ in 0..<2 {
                expectStatus(
                    try await client.send(
                        .DELETE, APIRoutes.removeFavourite.path(bike.id), token: bob.tokens.accessToken),
                    204)
            }
            #expect(try await client.get(APIRoutes.product.path(bike.id)).decode(Product.self).favouriteCount == 1)
            #expect(try await client.saved(as: bob).map(\.title) == ["Lamp"])
            expectError(try await client.save(bike, as: ada), 422, code: "own_product")
            expectError(
                try await client.send(
                    .PUT, APIRoutes.saveFavourite.path("00000000-0000-4000-8000-000000000000"),
                    token: bob.tokens.accessToken), 404)
            expectError(try await client.send(.PUT, APIRoutes.saveFavourite.path(bike.id)), 401)
            // A saved product taken down leaves the list.
            expectStatus(
                try await client.send(.DELETE, APIRoutes.deleteProduct.path(lamp.id), token: ada.tokens.accessToken),
                204)
            #expect(try await client.saved(as: bob).isEmpty)
        }
    }

    @Test(arguments: StorageKind.available)
    func saversAreToldOfAPriceDropAndOfTheSaleButNotOfARise(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let cyd = try await client.register("cyd")
            let bike = try await client.createProduct("Bike", token: ada.tokens.accessToken, priceCents: 10_000)
            for saver in [bob, cyd] { expectStatus(try await client.save(bike, as: saver), 204) }
            for price in [12_000, 9_000] {
                expectStatus(
                    try await client.send(
                        .PATCH, APIRoutes.updateProduct.path(bike.id), json: UpdateProductRequest(priceCents: price),
                        token: ada.tokens.accessToken), 200)
            }
            _ = try await client.startConversation(with: ada.user.id, productId: bike.id, token: cyd.tokens.accessToken)
            expectStatus(
                try await client.send(
                    .PUT, APIRoutes.changeProductStatus.path(bike.id),
                    json: ChangeProductStatusRequest(status: .sold, buyerId: cyd.user.id), token: ada.tokens.accessToken
                ),
                200)
            let bobs = try await client.notifications(as: bob)
            #expect(bobs.map(\.type) == [NotificationType.favouriteSold, NotificationType.favouritePriceDropped])
            #expect(bobs.allSatisfy { $0.productId == bike.id })
            // The buyer is not told of their own purchase.
            #expect(try await client.notifications(as: cyd).map(\.type) == [NotificationType.favouritePriceDropped])
            // Sold products stay in the saver's list.
            #expect(try await client.saved(as: bob).map(\.status) == [.sold])
        }
    }

    @Test(arguments: StorageKind.available)
    func savesAndRemovalsAtOnceLeaveTheCountRight(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bike = try await client.createProduct("Bike", token: ada.tokens.accessToken)
            var savers: [AuthResponse] = []
            for index in 0..<8 { savers.append(try await client.register("saver\(index)")) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, saver) in savers.enumerated() {
                    group.addTask {
                        // Each saves three times at once; the odd ones then remove theirs.
                        async let first = client.save(bike, as: saver)
                        async let second = client.save(bike, as: saver)
                        async let third = client.save(bike, as: saver)
                        _ = try await (first, second, third)
                        if index % 2 == 1 {
                            _ = try await client.send(
                                .DELETE, APIRoutes.removeFavourite.path(bike.id), token: saver.tokens.accessToken)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await client.get(APIRoutes.product.path(bike.id)).decode(Product.self).favouriteCount == 4)
        }
    }
}

extension BazaarTestClient {
    /// Saves `product` as `user`.
    fileprivate func save(_ product: Product, as user: AuthResponse) async throws -> TestResponse {
        try await send(.PUT, APIRoutes.saveFavourite.path(product.id), token: user.tokens.accessToken)
    }

    /// The first page of `user`'s saved products.
    fileprivate func saved(as user: AuthResponse) async throws -> [Product] {
        try await get(APIRoutes.favourites.template, token: user.tokens.accessToken).decode(Page<Product>.self).items
    }

    /// The first page of `user`'s notifications, newest first.
    fileprivate func notifications(as user: AuthResponse) async throws -> [BazaarAPI.Notification] {
        try await get(APIRoutes.notifications.template, token: user.tokens.accessToken)
            .decode(Page<BazaarAPI.Notification>.self).items
    }
}
