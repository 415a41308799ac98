import BazaarAPI
import Dependencies
import Foundation
import Networking
import Reviews
import Session
import TestSupport
import Testing

@Suite("Reviews logic controllers against the real bazaar-server", .timeLimit(.minutes(2)))
struct ReviewsLogicTests {
    /// A sale: the seller (raw), the buyer signed in through the kit, the sold product.
    struct Sale {
        let seller: AuthResponse
        let buyer: UserSession
        let starter: SessionStarter
        let product: Product

        static func make(_ fixture: SessionFixture) async throws -> Sale {
            let starter = fixture.starter()
            let buyer = try await starter.register(username: "bob", password: "password123", displayName: "Bob")
            let seller = try await fixture.raw.register("sally", displayName: "Sally")
            let product = try await fixture.raw.createProduct("Lamp", token: seller.tokens.accessToken)
            _ = try await fixture.raw.startConversation(
                with: seller.user.id, productId: product.id,
                token: try await buyer.network.session.validTokens().accessToken)
            let sold = try await fixture.raw.changeStatus(
                of: product.id, to: .sold, buyerId: buyer.userID, token: seller.tokens.accessToken)
            #expect(sold.status == 200)
            return Sale(seller: seller, buyer: buyer, starter: starter, product: product)
        }
    }

    @Test("the buyer reviews the seller: the seller's page shows the rating and the review under the buyer's name")
    func reviewShowsOnTheSellersPage() async throws {
        try await SessionFixture.with { fixture in
            let sale = try await Sale.make(fixture)
            let reviews = ReviewsLogicController(network: sale.starter.publicNetwork, userID: sale.seller.user.id)
            let before = try #require(await reviews.send(.load).content)
            #expect(before.reviews.isEmpty && before.ratingSummary == "No reviews yet")

            let form = ReviewFormLogicController(session: sale.buyer, productID: sale.product.id)
            let written = try #require(
                await form.send(.submit(ReviewDraft(rating: "4", text: "  Quick and friendly  "))).content?.written)
            #expect(written.rating == 4 && written.text == "Quick and friendly")
            #expect(written.subjectId == sale.seller.user.id)

            let after = try #require(await reviews.send(.load).content)
            #expect(after.ratingSummary == "4.0 ★ from 1 review")
            #expect(after.reviews.map(\.authorName) == ["Bob"])
            #expect(after.reviews.first?.stars == "★★★★☆")
        }
    }

    @Test("a rating outside 1 to 5 or words too long stay in the form with the reason beside the field")
    func fieldErrors() async throws {
        try await SessionFixture.with { fixture in
            let sale = try await Sale.make(fixture)
            let form = ReviewFormLogicController(session: sale.buyer, productID: sale.product.id)
            let refused = try #require(
                await form.send(.submit(ReviewDraft(rating: "six", text: String(repeating: "a", count: 1001)))).content)
            #expect(refused.fieldErrors[.rating] == "Give a rating from 1 to 5 stars.")
            #expect(refused.fieldErrors[.text] == "Keep it to 1000 characters.")
            #expect(refused.written == nil)
            #expect(await form.send(.submit(ReviewDraft(rating: "0"))).content?.fieldErrors[.rating] != nil)
        }
    }

    @Test("a second review of the same sale, or a review by someone outside it, is refused with the server's reason")
    func refusals() async throws {
        try await SessionFixture.with { fixture in
            let sale = try await Sale.make(fixture)
            let form = ReviewFormLogicController(session: sale.buyer, productID: sale.product.id)
            #expect(await form.send(.submit(ReviewDraft(rating: "5"))).content?.written != nil)
            let again = await form.send(.submit(ReviewDraft(rating: "1")))
            #expect(again.error?.kind == .invalidInput)
            let outsider = try await fixture.starter(device: "outsider").register(
                username: "otto", password: "password123", displayName: "Otto")
            let outside = await ReviewFormLogicController(session: outsider, productID: sale.product.id)
                .send(.submit(ReviewDraft(rating: "5")))
            #expect(outside.error?.kind == .notFound)
            let signedOut = await ReviewFormLogicController(session: nil, productID: sale.product.id)
                .send(.submit(ReviewDraft(rating: "5")))
            #expect(signedOut.error?.kind == .signedOut)
        }
    }

    @Test("a review whose author deleted their account reads as written by Deleted user")
    func aDeletedAuthorIsADeletedUser() async throws {
        try await SessionFixture.with { fixture in
            let sale = try await Sale.make(fixture)
            let form = ReviewFormLogicController(session: sale.buyer, productID: sale.product.id)
            #expect(await form.send(.submit(ReviewDraft(rating: "5", text: "Great"))).content?.written != nil)
            _ = try await sale.buyer.network.request(BazaarEndpoints.deleteAccount(password: "password123"))
            let reviews = ReviewsLogicController(network: sale.starter.publicNetwork, userID: sale.seller.user.id)
            let content = try #require(await reviews.send(.load).content)
            #expect(content.reviews.map(\.authorName) == ["Deleted user"])
            #expect(content.reviews.first?.review.text == "Great", "what they wrote stays for the seller")
        }
    }
}
