import BazaarAPI
import Dependencies
import Foundation
import Networking
import Products
import Session
import TestSupport
import Testing

@Suite("Products logic controllers against the real bazaar-server", .timeLimit(.minutes(2)))
struct ProductsLogicTests {
    @Test("browsing pages through every product once, newest first, then reports no more")
    func browseWithPaging() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await fixture.raw.register("sam")
            for index in 1...5 {
                _ = try await fixture.raw.createProduct("Lamp \(index)", token: seller.tokens.accessToken)
            }
            let logic = ProductListLogicController(network: fixture.starter().publicNetwork, pageSize: 2)
            var state = await logic.send(.load(query: nil))
            #expect(state.content?.products.map(\.title) == ["Lamp 5", "Lamp 4"])
            while state.content?.hasMore == true {
                state = await logic.send(.loadMore)
            }
            #expect(state.content?.products.map(\.title) == ["Lamp 5", "Lamp 4", "Lamp 3", "Lamp 2", "Lamp 1"])
            let after = await logic.send(.loadMore)
            #expect(after.content?.products.count == 5, "no more pages leaves the list as it is")
        }
    }

    @Test("search shows only matching products; a blank search shows everything")
    func search() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await fixture.raw.register("sue")
            _ = try await fixture.raw.createProduct("Red bicycle", token: seller.tokens.accessToken)
            _ = try await fixture.raw.createProduct("Blue kettle", token: seller.tokens.accessToken)
            let logic = ProductListLogicController(network: fixture.starter().publicNetwork)
            let bikes = await logic.send(.load(query: "bicycle"))
            #expect(bikes.content?.products.map(\.title) == ["Red bicycle"])
            #expect(bikes.content?.query == "bicycle")
            let all = await logic.send(.load(query: "  "))
            #expect(all.content?.products.count == 2)
        }
    }

    @Test("opening a product shows it with its seller; an unknown id fails as not found")
    func openProduct() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await fixture.raw.register("tom")
            let product = try await fixture.raw.createProduct("Chair", token: seller.tokens.accessToken)
            let module = ProductsModule(network: fixture.starter().publicNetwork, session: nil)
            let state = await module.productScreen(id: product.id).logic.send(.load)
            #expect(state.content?.product == product)
            #expect(state.content?.seller.username == "tom")
            let missing = await module.productScreen(id: "no-such-product").logic.send(.load)
            #expect(missing.error?.kind == .notFound)
        }
    }

    @Test("selling lists the product as the signed-in user; bad fields and no session fail with reasons")
    func sell() async throws {
        try await SessionFixture.with { fixture in
            let starter = fixture.starter()
            let session = try await starter.register(username: "uma", password: "password123", displayName: "Uma")
            let module = ProductsModule(network: starter.publicNetwork, session: session)
            let sold = await module.sellScreen().logic.send(
                .sell(SellDraft(title: "Desk", description: "Oak", price: "45")))
            #expect(sold.content?.listed?.title == "Desk")
            #expect(sold.content?.listed?.priceCents == 4500)
            #expect(sold.content?.listed?.sellerId == session.userID)
            let negative = await module.sellScreen().logic.send(.sell(SellDraft(title: "Desk", price: "-1")))
            #expect(negative.content?.listed == nil)
            #expect(negative.content?.fieldErrors.keys.sorted { $0.rawValue < $1.rawValue } == [.price])
            let anonymous = await ProductsModule(network: starter.publicNetwork, session: nil).sellScreen().logic.send(
                .sell(SellDraft(title: "Desk", description: "Oak", price: "1")))
            #expect(anonymous.error?.kind == .signedOut)
        }
    }

    @Test("with the server down, browsing fails as offline with a suggestion")
    func serverDown() async throws {
        let network = try await SessionFixture.with { fixture in fixture.starter().publicNetwork }
        let state = await ProductListLogicController(network: network).send(.load(query: nil))
        #expect(state.error?.kind == .offline)
        #expect(state.error?.suggestion == "Check your connection and try again.")
    }
}

@Suite("The seed's completion-handler forms")
struct CompletionHandlerFormTests {
    @Test("send(_:then:) delivers the same state the async form returns")
    func thenFormDeliversState() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await fixture.raw.register("vic")
            let product = try await fixture.raw.createProduct("Rug", token: seller.tokens.accessToken)
            let logic = ProductsModule(network: fixture.starter().publicNetwork, session: nil).productScreen(
                id: product.id
            ).logic
            let state = await withCheckedContinuation { continuation in
                logic.send(.load) { continuation.resume(returning: $0) }
            }
            #expect(state.content?.product.title == "Rug")
        }
    }
}
