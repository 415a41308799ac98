import BazaarAPI
import Dependencies
import Favourites
import Foundation
import Networking
import Session
import TestSupport
import Testing

@Suite("FavouritesLogicController against the real bazaar-server", .timeLimit(.minutes(2)))
struct FavouritesLogicTests {
    @Test("saving puts the product first with its count; removing drops it; pages load in order")
    func saveRemoveAndPage() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "saver", password: "password123", displayName: "Saver")
            let seller = try await fixture.raw.register("seller")
            var products: [Product] = []
            for title in ["Lamp", "Desk", "Chair"] {
                products.append(try await fixture.raw.createProduct(title, token: seller.tokens.accessToken))
            }
            let logic = FavouritesLogicController(network: buyer.network, pageSize: 2)
            #expect(await logic.send(.load).content == FavouritesContent(products: [], hasMore: false))
            for product in products { await logic.send(.save(productId: product.id)) }
            // Saved again: no second entry, and still first only by its first save.
            let saved = await logic.send(.save(productId: products[0].id))
            #expect(saved.content?.products.map(\.title) == ["Chair", "Desk"])
            #expect(saved.content?.products.first?.favouriteCount == 1)
            #expect(saved.content?.hasMore == true)
            let all = await logic.send(.loadMore)
            #expect(all.content?.products.map(\.title) == ["Chair", "Desk", "Lamp"])
            let removed = await logic.send(.remove(productId: products[1].id))
            #expect(removed.content?.products.map(\.title) == ["Chair", "Lamp"])
            #expect(await logic.send(.load).content?.products.map(\.title) == ["Chair", "Lamp"])
        }
    }

    @Test("saving your own product fails with the server's reason, as invalid input")
    func ownProductIsRefused() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await fixture.starter().register(
                username: "seller", password: "password123", displayName: "Seller")
            let product = try await fixture.raw.createProduct(
                "Lamp", token: try await seller.network.session.validTokens().accessToken)
            let logic = FavouritesLogicController(network: seller.network)
            let state = await logic.send(.save(productId: product.id))
            #expect(state.error?.kind == .invalidInput)
            #expect(state.error?.message.contains("own product") == true)
        }
    }
}
