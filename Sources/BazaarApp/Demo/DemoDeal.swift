import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// The deal part of the demo: Dana saves the bike, the seller lowers its price and Dana is told,
/// Dana offers, the seller accepts (the bike is reserved for her), marks it sold, and both review
/// each other; each review shows on the other's page. Every step goes through the feature modules,
/// as the commands do, drawn by the same renderers.
struct DemoDeal {
    let narrator: DemoNarrator
    let buyer: DemoUser
    let seller: DemoUser
    let product: Product
    let conversationID: String

    /// Walks the deal from step `first` on; returns the next step's number.
    func walk(from first: Int) async throws -> Int {
        var step = first
        func next(_ title: String) async throws {
            try await narrator.step(step, title)
            step += 1
        }

        try await next("Dana saves the bike, to think about it")
        let saved = try buyer.dependencies.favouritesModule.favouritesScreen()
        let list = try await saved.logic.send(.save(productId: product.id)).content()
        narrator.show(SavedRenderer().lines(for: list, width: narrator.width))

        try await next("The seller lowers the price by a tenth")
        let listing = try seller.dependencies.productsModule.listingScreen(id: product.id).logic
        var draft = try await listing.send(.load).content().draft
        draft.price = MoneyText.amount(cents: product.priceCents * 9 / 10)
        let lowered = try await listing.send(.edit(draft)).content()
        narrator.show(ListingRenderer().lines(for: lowered))

        try await next("Dana is told: a product she saved costs less")
        let notifications = try await buyer.dependencies.notificationsModule.notificationsScreen().logic.send(.load)
            .content()
        narrator.show(NotificationsRenderer().lines(for: notifications, width: narrator.width))

        try await next("The seller keeps the offers open; Dana makes one")
        let sellerOffers = try seller.dependencies.offersModule.offersScreen(conversationID: conversationID).logic
        _ = try await sellerOffers.send(.load).content()
        let watching = await sellerOffers.states()
        let amount = product.priceCents * 8 / 10
        let buyerOffers = try buyer.dependencies.offersModule.offersScreen(conversationID: conversationID).logic
        let made = try await buyerOffers.send(.make(amountCents: amount)).content()
        narrator.show(OffersRenderer().lines(for: made, width: narrator.width))

        try await next("It arrives on the seller's screen, live, with what the seller may do")
        let arrived = try await DemoWait.first("the offer", in: watching, within: .seconds(15)) { content in
            content.cards.first { $0.offer.amountCents == amount && !$0.decisions.isEmpty }
        }
        narrator.show([OffersRenderer().line(for: arrived)])

        try await next("The seller accepts: the bike is reserved for Dana")
        let accepted = try await sellerOffers.send(.decide(.accept, offerID: arrived.id)).content()
        narrator.show(OffersRenderer().lines(for: accepted, width: narrator.width))

        try await next("They meet; the seller marks it sold")
        _ = try await listing.send(.load).content()
        let sold = try await listing.send(.setStatus(.sold, buyerID: buyer.id)).content()
        narrator.show(ListingRenderer().lines(for: sold))

        try await next("Both review the sale")
        for (author, rating, text) in [
            (buyer, "5", "Exactly as described, and a fair price."), (seller, "5", "Friendly and on time."),
        ] {
            let form = try author.dependencies.reviewsModule.reviewFormScreen(productID: product.id).logic
            let review = try await form.send(.submit(ReviewDraft(rating: rating, text: text))).content()
            guard let written = review.written else { throw AppError(.refused, "the review was not written") }
            narrator.show([
                "✓ ".consoleText(.success) + RatingText.stars(written.rating).consoleText(.warning) + "  "
                    + written.text.consoleText()
            ])
        }

        try await next("Each review shows on the other's page")
        for (index, (reader, subject)) in [(buyer, seller.id), (seller, buyer.id)].enumerated() {
            if index > 0 { narrator.show([""]) }
            let reviews = try await reader.dependencies.reviewsModule.reviewsScreen(userID: subject).logic.send(.load)
                .content()
            let shelf = try await reader.dependencies.productsModule.productListScreen(pageSize: 5).logic.send(
                .search(.everyListing(of: subject))
            ).content()
            narrator.show(
                SellerRenderer().lines(for: reviews, listings: shelf.products, limit: 5, width: narrator.width))
        }
        return step
    }
}
