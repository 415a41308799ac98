import BazaarAPI
import Dependencies
import Foundation
import Networking
import Notifications
import Session
import TestSupport
import Testing

@Suite("NotificationsLogicController against the real bazaar-server", .timeLimit(.minutes(2)))
struct NotificationsLogicTests {
    /// Registers a seller who receives `count` messages from a buyer; returns the seller's session.
    static func sellerWithMessages(_ count: Int, fixture: SessionFixture) async throws -> UserSession {
        let seller = try await fixture.starter().register(
            username: "sella", password: "password123", displayName: "Sella")
        let buyer = try await fixture.raw.register("buyer")
        let conversation = try await fixture.raw.startConversation(with: seller.userID, token: buyer.tokens.accessToken)
        for index in 1...count {
            _ = try await fixture.raw.sendMessage(
                "Is it still for sale? (\(index))", in: conversation.id, token: buyer.tokens.accessToken)
        }
        return seller
    }

    @Test("a new message creates a notification; pages load in order with the unread count")
    func loadAndPage() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await Self.sellerWithMessages(3, fixture: fixture)
            let logic = NotificationsLogicController(network: seller.network, pageSize: 2)
            let first = await logic.send(.load)
            #expect(first.content?.notifications.count == 2)
            #expect(first.content?.hasMore == true)
            let all = await logic.send(.loadMore)
            #expect(all.content?.notifications.count == 3)
            #expect(all.content?.unreadCount == 3)
            #expect(all.content?.notifications.allSatisfy { $0.type == NotificationType.newMessage } == true)
            // Each says who wrote and what, in words; newest first.
            #expect(all.content?.items.first?.headline == "Buyer sent you a message: “Is it still for sale? (3)”")
            #expect(all.content?.items.allSatisfy { $0.from?.username == "buyer" } == true)
        }
    }

    @Test("an offer and its decision read as sentences naming who and how much")
    func offersInWords() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await fixture.starter().register(
                username: "sella", password: "password123", displayName: "Sella")
            let buyer = try await fixture.raw.register("buyer")
            let product = try await fixture.raw.post(
                APIRoutes.createProduct.template,
                CreateProductRequest(title: "Lamp", description: "", priceCents: 2_000, currency: "EUR"),
                token: seller.network.session.validTokens().accessToken
            ).decode(Product.self)
            let conversation = try await fixture.raw.startConversation(
                with: seller.userID, productId: product.id, token: buyer.tokens.accessToken)
            let made = try await fixture.raw.post(
                APIRoutes.makeOffer.path(conversation.id), CreateOfferRequest(amountCents: 1_500),
                token: buyer.tokens.accessToken, headers: [(APIHeaders.idempotencyKey, "offer-1")])
            try #require(made.status == 201)
            let logic = NotificationsLogicController(network: seller.network, pageSize: 10)
            let loaded = await logic.send(.load)
            #expect(loaded.content?.items.map(\.headline) == ["Buyer made you an offer: Offered 15.00 EUR"])
        }
    }

    @Test("marking one read, then all, updates the list and the server")
    func markRead() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await Self.sellerWithMessages(3, fixture: fixture)
            let logic = NotificationsModule(session: seller).notificationsScreen().logic
            let loaded = await logic.send(.load)
            let firstID = try #require(loaded.content?.notifications.first?.id)
            let one = await logic.send(.markRead(ids: [firstID]))
            #expect(one.content?.unreadCount == 2)
            let everything = await logic.send(.markAllRead)
            #expect(everything.content?.unreadCount == 0)
            let reloaded = await NotificationsLogicController(network: seller.network).send(.load)
            #expect(reloaded.content?.unreadCount == 0, "the server has them read too")
        }
    }

    @Test("an ended session fails as signed out")
    func sessionEnded() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await fixture.starter().register(
                username: "gone", password: "password123", displayName: "Gone")
            await seller.logout()
            let state = await NotificationsLogicController(network: seller.network).send(.load)
            #expect(state.error?.kind == .signedOut)
        }
    }
}
