import BazaarAPI
import Dependencies
import Foundation
import Networking
import Products
import Session
import TestSupport
import Testing

@Suite("ListingLogicController against the real bazaar-server", .timeLimit(.minutes(2)))
struct ListingLogicTests {
    /// The seller signed in through the kit, one product of theirs, and a buyer who asked about it.
    struct Listing {
        let seller: UserSession
        let starter: SessionStarter
        let product: Product
        let buyer: AuthResponse

        static func make(_ fixture: SessionFixture) async throws -> Listing {
            let starter = fixture.starter()
            let seller = try await starter.register(username: "sally", password: "password123", displayName: "Sally")
            let product = try await fixture.raw.createProduct(
                "Desk", token: try await seller.network.session.validTokens().accessToken, priceCents: 8_000)
            let buyer = try await fixture.raw.register("bob", displayName: "Bob")
            _ = try await fixture.raw.startConversation(
                with: seller.userID, productId: product.id, token: buyer.tokens.accessToken)
            return Listing(seller: seller, starter: starter, product: product, buyer: buyer)
        }

        func logic(as session: UserSession? = nil) -> ListingLogicController {
            ListingLogicController(
                session: session ?? seller, publicNetwork: starter.publicNetwork, productID: product.id)
        }
    }

    @Test("the seller's listing loads with its form filled in and the people who asked about it as buyers")
    func load() async throws {
        try await SessionFixture.with { fixture in
            let listing = try await Listing.make(fixture)
            let content = try #require(await listing.logic().send(.load).content)
            #expect(
                content.draft == SellDraft(title: "Desk", description: "About Desk", price: "80.00", currency: "EUR"))
            #expect(content.buyers.map(\.displayName) == ["Bob"])
            #expect(content.statusChoices == [.reserved, .sold])
            #expect(content.canChange)
        }
    }

    @Test("an edit shows each broken rule beside its field and sends nothing; a good one changes the product")
    func edit() async throws {
        try await SessionFixture.with { fixture in
            let listing = try await Listing.make(fixture)
            let logic = listing.logic()
            _ = await logic.send(.load)
            let refused = try #require(
                await logic.send(.edit(SellDraft(title: " ", description: "", price: "cheap", currency: "EUR")))
                    .content)
            #expect(Set(refused.fieldErrors.keys) == [.title, .price])
            #expect(refused.product.title == "Desk", "nothing was sent")
            let edited = try #require(
                await logic.send(
                    .edit(SellDraft(title: "Oak desk", description: "Solid", price: "65", currency: "EUR"))
                )
                .content)
            #expect(edited.fieldErrors.isEmpty)
            #expect(edited.product.title == "Oak desk" && edited.product.priceCents == 6_500)
            #expect(edited.draft.price == "65.00")
        }
    }

    @Test("reserve for a buyer, release, sell: then the listing is final and offers no status")
    func statusLifecycle() async throws {
        try await SessionFixture.with { fixture in
            let listing = try await Listing.make(fixture)
            let logic = listing.logic()
            _ = await logic.send(.load)
            let reserved = try #require(
                await logic.send(.setStatus(.reserved, buyerID: listing.buyer.user.id)).content)
            #expect(reserved.product.status == .reserved)
            #expect(reserved.statusChoices == [.available, .sold])
            let released = try #require(await logic.send(.setStatus(.available, buyerID: nil)).content)
            #expect(released.product.status == .available)
            let sold = try #require(await logic.send(.setStatus(.sold, buyerID: listing.buyer.user.id)).content)
            #expect(sold.product.status == .sold)
            #expect(sold.statusChoices.isEmpty && !sold.canChange)
            let again = await logic.send(.edit(SellDraft(title: "Desk", price: "1")))
            #expect(again.error?.kind == .invalidInput)
            #expect(again.error?.message.contains("sold") == true)
        }
    }

    @Test("a stranger cannot be named as the buyer, and the listing is not found to anyone but its seller")
    func refusals() async throws {
        try await SessionFixture.with { fixture in
            let listing = try await Listing.make(fixture)
            let logic = listing.logic()
            _ = await logic.send(.load)
            let stranger = try await fixture.raw.register("eve")
            let refused = await logic.send(.setStatus(.sold, buyerID: stranger.user.id))
            #expect(refused.error?.kind == .invalidInput)
            let other = try await fixture.starter(device: "other").register(
                username: "otto", password: "password123", displayName: "Otto")
            #expect(await listing.logic(as: other).send(.load).error?.kind == .notFound)
            #expect(await listing.logic(as: other).send(.takeDown).error?.kind == .notFound)
        }
    }

    @Test("taking a listing down leaves it gone for everyone")
    func takeDown() async throws {
        try await SessionFixture.with { fixture in
            let listing = try await Listing.make(fixture)
            let logic = listing.logic()
            _ = await logic.send(.load)
            let removed = try #require(await logic.send(.takeDown).content)
            #expect(removed.isRemoved && removed.statusChoices.isEmpty)
            let gone = try await fixture.raw.get(APIRoutes.product.path(listing.product.id))
            #expect(gone.status == 404)
        }
    }
}
