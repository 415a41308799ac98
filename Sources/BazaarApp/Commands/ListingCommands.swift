import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

extension ProductCommand {
    /// `bazaar product edit ID [--title T] [--price P] [--description D] [--currency C]`.
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change your listing: only the fields you give change.",
            discussion: """
                People who saved it are told when the price goes down. A sold listing cannot change
                (exit 65); someone else's exits 66.

                Examples:
                  bazaar product edit 3f2a… --price 95
                  bazaar product edit 3f2a… --title "Road bike, 56 cm" --description "New tyres"
                """)
        @Argument(help: "The product's id, or a unique prefix of one shown here.") var id: String
        @Option(help: "A new title.") var title: String?
        @Option(help: "A new price, like 120 or 4.50.") var price: String?
        @Option(help: "A new description.") var description: String?
        @Option(help: "A new ISO 4217 code.") var currency: String?
        @OptionGroup var options: GlobalOptions

        func validate() throws {
            guard title != nil || price != nil || description != nil || currency != nil else {
                throw ValidationError("give at least one of --title, --price, --description, --currency")
            }
        }

        func run() async throws {
            try await ListingRun.run(id, options: options) { _, logic, loaded in
                var draft = loaded.draft
                if let title { draft.title = title }
                if let price { draft.price = price }
                if let description { draft.description = description }
                if let currency { draft.currency = currency }
                return await logic.send(.edit(draft))
            }
        }
    }

    /// `bazaar product status ID STATUS [--buyer USER]`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark your listing available, reserved or sold.",
            discussion: """
                Reserved and sold need the buyer: someone who has a conversation with you about this
                product (their id, or the start of one shown here; 'bazaar product status ID' with
                no status lists them). Reserving or selling declines the open offers; sold is final.

                Examples:
                  bazaar product status 3f2a…
                  bazaar product status 3f2a… reserved --buyer 7c1e
                  bazaar product status 3f2a… available
                """)
        @Argument(help: "The product's id, or a unique prefix of one shown here.") var id: String
        @Argument(help: "available, reserved or sold; leave out to see the choices.") var status: ProductStatus?
        @Option(help: "The buyer, for reserved and sold.") var buyer: String?
        @OptionGroup var options: GlobalOptions

        func validate() throws {
            switch status {
            case .reserved?, .sold?:
                guard buyer != nil else { throw ValidationError("\(status?.rawValue ?? "") needs --buyer") }
            case .available?, nil:
                guard buyer == nil else { throw ValidationError("--buyer goes with reserved or sold") }
            }
        }

        func run() async throws {
            try await ListingRun.run(id, options: options) { context, logic, loaded in
                guard let status else { return .presenting(loaded) }
                let buyerID = try buyer.map { text throws(AppError) in try context.ids.resolve(text, what: "buyer") }
                return await logic.send(.setStatus(status, buyerID: buyerID))
            }
        }
    }

    /// `bazaar product remove ID`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take your listing down for good.",
            discussion: """
                It is gone for everyone; conversations about it stay, and its open offers are
                declined in them.

                Examples:
                  bazaar product remove 3f2a…
                """)
        @Argument(help: "The product's id, or a unique prefix of one shown here.") var id: String
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await ListingRun.run(id, options: options) { _, logic, _ in await logic.send(.takeDown) }
        }
    }
}

extension ProductStatus: ExpressibleByArgument {}

/// What the listing commands share: sign in, load the listing, act, print what it left.
enum ListingRun {
    /// Runs `act` on the loaded listing `id`; it gets the context too (to resolve a short id).
    static func run(
        _ id: String, options: GlobalOptions,
        _ act: (AppContext, any ListingLogic, ListingContent) async throws -> ScreenState<ListingContent>
    ) async throws {
        try await AppCommand.run(options) { context in
            try await context.startSignedIn()
            let logic = try context.dependencies.productsModule.listingScreen(
                id: try context.ids.resolve(id, what: "product")
            ).logic
            let loaded = try await context.output.loading("Loading your listing") { await logic.send(.load) }.content()
            context.ids.record(loaded.buyers.map(\.id))
            let content = try await act(context, logic, loaded).content()
            guard content.fieldErrors.isEmpty else {
                throw AppError(fieldErrors: content.fieldErrors)
            }
            if context.json { return try context.printJSON(content.product) }
            context.output.write(ListingRenderer().lines(for: content))
        }
    }
}

/// Draws the seller's listing: the product, its status, and what can be done next.
struct ListingRenderer {
    /// The lines for `content`.
    func lines(for content: ListingContent) -> [ConsoleText] {
        let product = content.product
        if content.isRemoved {
            return ["✓ taken down: ".consoleText(.success) + product.title.consoleText(.heading)]
        }
        var lines: [ConsoleText] = [
            product.title.consoleText(.heading) + "  " + Formats.price(product) + "  "
                + product.status.rawValue.consoleText(product.status == .available ? .success : .warning),
            "product \(product.id) · saved by \(product.favouriteCount)".consoleText(.muted),
        ]
        if !content.canChange {
            lines.append("Sold: it cannot change any more.".consoleText(.muted))
            return lines
        }
        if content.buyers.isEmpty {
            lines.append(
                "Nobody has asked about it yet: it can be reserved or sold once someone has.".consoleText(.muted))
        } else {
            lines.append("People who asked about it:".consoleText(.muted))
            for buyer in content.buyers {
                lines.append(
                    "  " + KnownIDs.short(buyer.id).consoleText(.muted) + "  " + Formats.person(buyer).consoleText())
            }
        }
        let choices = content.statusChoices.map(\.rawValue).joined(separator: ", ")
        if !choices.isEmpty {
            lines.append(
                "It can become: \(choices) ('bazaar product status \(KnownIDs.short(product.id)) …').".consoleText(
                    .muted))
        }
        return lines
    }
}
