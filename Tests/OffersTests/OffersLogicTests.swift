import BazaarAPI
import Dependencies
import Foundation
import LiveEvents
import Networking
import Offers
import Session
import TestSupport
import Testing

@Suite("OffersLogicController against the real bazaar-server", .timeLimit(.minutes(2)))
struct OffersLogicTests {
    /// A seller and a buyer signed in through the kit, a product of the seller's and the buyer's
    /// conversation about it.
    struct Deal {
        let seller: UserSession
        let buyer: UserSession
        let product: Product
        let conversationID: String

        static func make(_ fixture: SessionFixture) async throws -> Deal {
            let seller = try await fixture.starter(device: "seller").register(
                username: "sally", password: "password123", displayName: "Sally")
            let buyer = try await fixture.starter(device: "buyer").register(
                username: "bob", password: "password123", displayName: "Bob")
            let product = try await fixture.raw.createProduct(
                "Bicycle", token: try await seller.network.session.validTokens().accessToken, priceCents: 15_000)
            let conversation = try await buyer.network.request(
                BazaarEndpoints.startConversation(
                    StartConversationRequest(userId: seller.userID, productId: product.id)))
            return Deal(seller: seller, buyer: buyer, product: product, conversationID: conversation.id)
        }

        func logic(for session: UserSession, connection: (any LiveEventSource)? = nil) -> OffersLogicController {
            OffersLogicController(
                network: session.network, connection: connection, conversationID: conversationID,
                viewerID: session.userID)
        }
    }

    @Test("the buyer offers, the seller accepts: the cards carry each side's decisions and the product is reserved")
    func offerAndAccept() async throws {
        try await SessionFixture.with { fixture in
            let deal = try await Deal.make(fixture)
            let buyer = deal.logic(for: deal.buyer)
            let seller = deal.logic(for: deal.seller)
            let empty = try #require(await buyer.send(.load).content)
            #expect(empty.offers.isEmpty)
            #expect(empty.canOffer)
            #expect(empty.askingPrice == "150.00 EUR")
            #expect(await seller.send(.load).content?.canOffer == false, "the seller makes no offers")

            let made = try #require(await buyer.send(.make(amountCents: 12_000)).content)
            #expect(made.cards.map(\.headline) == ["You offered 120.00 EUR"])
            #expect(made.cards.first?.decisions == [.withdraw])
            #expect(made.cards.first?.standing == "waiting for the seller")

            let asked = try #require(await seller.send(.load).content)
            let card = try #require(asked.cards.first)
            #expect(card.headline == "Bob offered 120.00 EUR")
            #expect(card.decisions == [.accept, .decline])

            let accepted = try #require(await seller.send(.decide(.accept, offerID: card.id)).content)
            #expect(accepted.cards.first?.standing == "accepted: reserved for Bob")
            #expect(accepted.cards.first?.decisions == [])
            #expect(accepted.conversation.product?.status == .reserved)

            let told = try #require(await buyer.send(.load).content)
            #expect(told.cards.first?.standing == "accepted: reserved for you")
            #expect(told.canOffer == false, "a reserved product takes no offers")
        }
    }

    @Test("a newer offer replaces the buyer's open one; a withdrawn offer has no decisions left")
    func replaceAndWithdraw() async throws {
        try await SessionFixture.with { fixture in
            let deal = try await Deal.make(fixture)
            let buyer = deal.logic(for: deal.buyer)
            _ = await buyer.send(.make(amountCents: 10_000))
            let second = try #require(await buyer.send(.make(amountCents: 11_000)).content)
            #expect(second.cards.map(\.standing) == ["waiting for the seller", "withdrawn"])
            let newest = try #require(second.cards.first)
            let withdrawn = try #require(await buyer.send(.decide(.withdraw, offerID: newest.id)).content)
            #expect(withdrawn.cards.map(\.standing) == ["withdrawn", "withdrawn"])
            #expect(withdrawn.cards.allSatisfy { $0.decisions.isEmpty })
        }
    }

    @Test("a decision that is not the viewer's, or an offer already decided, fails with the server's reason")
    func refusals() async throws {
        try await SessionFixture.with { fixture in
            let deal = try await Deal.make(fixture)
            let buyer = deal.logic(for: deal.buyer)
            let seller = deal.logic(for: deal.seller)
            let offer = try #require(await buyer.send(.make(amountCents: 9_000)).content?.offers.first)
            let ownAccept = await buyer.send(.decide(.accept, offerID: offer.id))
            #expect(ownAccept.error?.kind == .notFound, "to the buyer, an accept route of their offer does not exist")
            #expect(await seller.send(.decide(.decline, offerID: offer.id)).content?.offers.first?.status == .declined)
            let again = await seller.send(.decide(.accept, offerID: offer.id))
            #expect(again.error?.kind == .invalidInput)
            #expect(again.error?.message.contains("decided already") == true)
            let zero = await buyer.send(.make(amountCents: 0))
            #expect(zero.error?.kind == .invalidInput)
        }
    }

    @Test("while the seller's screen is watched, the buyer's offer arrives live, and so does the withdrawal")
    func offersArriveLive() async throws {
        try await SessionFixture.with { fixture in
            let deal = try await Deal.make(fixture)
            let connection = LiveEventsConnection(baseURL: fixture.baseURL, network: deal.seller.network)
            let seller = deal.logic(for: deal.seller, connection: connection)
            let buyer = deal.logic(for: deal.buyer)
            #expect(await seller.send(.load).content?.offers.isEmpty == true)
            let states = await seller.states()
            #expect(try await fixture.waitForServerLiveSockets(1) == 1)
            let made = try #require(await buyer.send(.make(amountCents: 13_000)).content?.offers.first)
            let arrived = await first(states, within: .seconds(10)) { $0.content?.offers.first?.id == made.id }
            #expect(arrived?.content?.cards.first?.decisions == [.accept, .decline])
            _ = await buyer.send(.decide(.withdraw, offerID: made.id))
            let withdrawn = await first(states, within: .seconds(10)) {
                $0.content?.offers.first?.status == .withdrawn
            }
            #expect(withdrawn?.content?.cards.first?.decisions == [])
            await connection.stop()
        }
    }
}
