import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// `bazaar seller USER`: a seller's page, their rating and reviews beside their listings.
struct SellerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seller", abstract: "A seller's page: rating, reviews, and every listing (no sign-in needed).",
        discussion: """
            The listings include reserved and sold ones, so you see what the seller has sold.
            An unknown user exits with 66.

            Examples:
              bazaar seller 7c1e…
              bazaar seller 7c1e… --json
            """)
    @Argument(help: "The user's id, or a unique prefix of one shown here.") var user: String
    @Option(help: "How many listings and reviews to show, 1 to 100.") var limit = 10
    @OptionGroup var options: GlobalOptions

    /// A seller's page for `--json`.
    struct Page: Encodable {
        var user: User
        var reviews: [Review]
        var listings: [Product]
    }

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit must be between 1 and 100") }
    }

    func run() async throws {
        try await AppCommand.run(options) { context in
            try await context.start()
            let userID = try context.ids.resolve(user, what: "user")
            let reviews = try context.dependencies.reviewsModule.reviewsScreen(userID: userID).logic
            let listings = try context.dependencies.productsModule.productListScreen(pageSize: limit).logic
            let (trust, shelf) = await context.output.loading("Loading the seller") {
                let trust = await reviews.send(.load)
                let shelf = await listings.send(
                    .search(.everyListing(of: userID)))
                return (trust, shelf)
            }
            let content = try trust.content()
            let products = Array(try shelf.content().products.prefix(limit))
            context.ids.record([content.user.id] + products.map(\.id))
            if context.json {
                return try context.printJSON(
                    Page(user: content.user, reviews: content.reviews.map(\.review), listings: products))
            }
            context.output.write(
                SellerRenderer().lines(
                    for: content, listings: products, limit: limit, width: context.output.capabilities.width))
        }
    }
}

/// `bazaar review PRODUCT --rating N [--text T]`.
struct ReviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review", abstract: "Review the other party of a sale you were part of.",
        discussion: """
            Once the product is sold, its seller and its buyer may each review the other, once.
            The review shows on their page ('bazaar seller USER').

            Examples:
              bazaar review 3f2a… --rating 5 --text "Quick and friendly"
            """)
    @Argument(help: "The sold product's id, or a unique prefix of one shown here.") var product: String
    @Option(help: "1 to 5 stars.") var rating: String
    @Option(help: "What you want to say, up to \(InputRules.reviewText.upperBound) characters.") var text = ""
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await AppCommand.run(options) { context in
            try await context.startSignedIn()
            let logic = try context.dependencies.reviewsModule.reviewFormScreen(
                productID: try context.ids.resolve(product, what: "product")
            ).logic
            let form = try await context.output.loading("Sending the review") {
                await logic.send(.submit(ReviewDraft(rating: rating, text: text)))
            }.content()
            guard let review = form.written else {
                throw AppError(fieldErrors: form.fieldErrors)
            }
            if context.json { return try context.printJSON(review) }
            context.output.write(
                "✓ reviewed: ".consoleText(.success) + RatingText.stars(review.rating).consoleText(.warning)
                    + (review.text.isEmpty ? "" : "  " + review.text).consoleText())
        }
    }
}

/// Draws a seller's page; no logic.
struct SellerRenderer {
    /// The seller, their rating, their newest reviews and their listings.
    func lines(for content: ReviewsContent, listings: [Product], limit: Int, width: Int?) -> [ConsoleText] {
        let user = content.user
        var lines: [ConsoleText] = [
            Formats.person(user).consoleText(.heading),
            (RatingText.roundedStars(of: user).map { $0 + "  " } ?? "").consoleText(.warning)
                + content.ratingSummary.consoleText(.muted),
        ]
        if let bio = user.bio, !bio.isEmpty { lines.append(bio.consoleText()) }
        lines.append("")
        lines.append("Reviews".consoleText(.heading))
        if content.reviews.isEmpty { lines.append("  none yet".consoleText(.muted)) }
        for line in content.reviews.prefix(limit) {
            lines.append(
                "  " + line.stars.consoleText(.warning) + "  " + "\(line.authorName):".consoleText(.heading) + " "
                    + (line.review.text.isEmpty ? "(no words)".consoleText(.muted) : line.review.text.consoleText())
                    + "  " + Formats.date(line.review.createdAt).consoleText(.muted))
        }
        lines.append("")
        lines.append("Listings".consoleText(.heading))
        guard !listings.isEmpty else {
            lines.append("  none".consoleText(.muted))
            return lines
        }
        let table = Table(
            columns: [.init("ID"), .init("TITLE", flexible: true), .init("PRICE", alignRight: true), .init("STATUS")],
            rows: listings.map { product in
                [
                    KnownIDs.short(product.id).consoleText(.muted), product.title.consoleText(), Formats.price(product),
                    product.status.rawValue.consoleText(product.status == .available ? .success : .warning),
                ]
            })
        lines += table.render(width: width)
        return lines
    }
}
