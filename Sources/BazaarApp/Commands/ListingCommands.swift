import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

extension ProductCommand {
    /// `bazaar product edit ID [--title T] [--price P] [--description D] [--currency C] [--photo FILE]…`.
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change your listing: only the fields you give change.",
            discussion: """
                People who saved it are told when the price goes down. A sold listing cannot change
                (exit 65); someone else's exits 66. --photo adds photos after the ones it has, with
                a progress bar ('bazaar product photos' removes and reorders them).

                Examples:
                  bazaar product edit 3f2a… --price 95
                  bazaar product edit 3f2a… --title "Road bike, 56 cm" --description "New tyres"
                  bazaar product edit 3f2a… --photo tyres.jpg
                """)
        @Argument(help: "The product's id, or a unique prefix of one shown here.") var id: String
        @Option(help: "A new title.") var title: String?
        @Option(help: "A new price, like 120 or 4.50.") var price: String?
        @Option(help: "A new description.") var description: String?
        @Option(help: "A new ISO 4217 code.") var currency: String?
        @Option(name: .customLong("photo"), help: "A photo to add after the listing's own (repeat for more).")
        var photos: [String] = []
        @OptionGroup var options: GlobalOptions

        func validate() throws {
            guard title != nil || price != nil || description != nil || currency != nil || !photos.isEmpty else {
                throw ValidationError("give at least one of --title, --price, --description, --currency, --photo")
            }
        }

        func run() async throws {
            let pictures = try ImageFile.photos(photos)
            try await ListingRun.run(id, options: options) { context, logic, loaded in
                var state = ScreenState.presenting(loaded)
                if title != nil || price != nil || description != nil || currency != nil {
                    var draft = loaded.draft
                    if let title { draft.title = title }
                    if let price { draft.price = price }
                    if let description { draft.description = description }
                    if let currency { draft.currency = currency }
                    state = await logic.send(.edit(draft))
                }
                guard !pictures.isEmpty, state.content?.fieldErrors.isEmpty == true else { return state }
                return await ListingRun.add(pictures, with: logic, in: context)
            }
        }
    }

    /// `bazaar product photos ID | add ID FILE… | remove ID PHOTO | move ID PHOTO --to N`.
    struct Photos: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, add, remove and reorder your listing's photos.",
            discussion: """
                The first photo is the cover. Photos are named by id, or the start of one shown here.

                Examples:
                  bazaar product photos 3f2a…
                  bazaar product photos add 3f2a… back.jpg side.jpg
                  bazaar product photos move 3f2a… 9c0d… --to 1
                  bazaar product photos remove 3f2a… 9c0d…
                """,
            subcommands: [List.self, Add.self, Remove.self, Move.self], defaultSubcommand: List.self)

        /// `bazaar product photos list ID`.
        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Your listing's photos, cover first.",
                discussion: "Examples:\n  bazaar product photos list 3f2a…")
            @Argument(help: "The product's id, or a unique prefix of one shown here.") var id: String
            @OptionGroup var options: GlobalOptions

            func run() async throws {
                try await ListingRun.run(id, options: options) { _, _, loaded in .presenting(loaded) }
            }
        }

        /// `bazaar product photos add ID FILE…`.
        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add photos after the listing's own, with a progress bar.",
                discussion: """
                    JPEG, PNG or WebP, at most 5 MiB each and 8 photos in all. A photo the server
                    refuses is named on standard error, the others are kept, and the exit is 65.

                    Examples:
                      bazaar product photos add 3f2a… back.jpg side.jpg
                    """)
            @Argument(help: "The product's id, or a unique prefix of one shown here.") var id: String
            @Argument(help: "The image files, in order.") var files: [String]
            @OptionGroup var options: GlobalOptions

            func validate() throws {
                guard !files.isEmpty else { throw ValidationError("name at least one image file") }
            }

            func run() async throws {
                let pictures = try ImageFile.photos(files)
                try await ListingRun.run(id, options: options) { context, logic, _ in
                    await ListingRun.add(pictures, with: logic, in: context)
                }
            }
        }

        /// `bazaar product photos remove ID PHOTO`.
        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove one photo from your listing.",
                discussion: "Examples:\n  bazaar product photos remove 3f2a… 9c0d…")
            @Argument(help: "The product's id, or a unique prefix of one shown here.") var id: String
            @Argument(help: "The photo's id, or a unique prefix of one shown here.") var photo: String
            @OptionGroup var options: GlobalOptions

            func run() async throws {
                try await ListingRun.run(id, options: options) { context, logic, loaded in
                    await logic.send(.removePhoto(try ListingRun.photo(photo, of: loaded, in: context)))
                }
            }
        }

        /// `bazaar product photos move ID PHOTO --to N`.
        struct Move: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Move one photo to another place; place 1 is the cover.",
                discussion: "Examples:\n  bazaar product photos move 3f2a… 9c0d… --to 1")
            @Argument(help: "The product's id, or a unique prefix of one shown here.") var id: String
            @Argument(help: "The photo's id, or a unique prefix of one shown here.") var photo: String
            @Option(help: "Its new place, from 1 (the cover).") var to: Int
            @OptionGroup var options: GlobalOptions

            func validate() throws {
                guard to >= 1 else { throw ValidationError("--to is a place from 1 (the cover)") }
            }

            func run() async throws {
                try await ListingRun.run(id, options: options) { context, logic, loaded in
                    await logic.send(.movePhoto(try ListingRun.photo(photo, of: loaded, in: context), to: to - 1))
                }
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
            context.ids.record(loaded.buyers.map(\.id) + loaded.product.photos.map(\.id))
            let content = try await act(context, logic, loaded).content()
            guard content.fieldErrors.isEmpty else {
                throw AppError(fieldErrors: content.fieldErrors)
            }
            context.ids.record(content.product.photos.map(\.id))
            if context.json {
                try context.printJSON(content.product)
            } else {
                context.output.write(ListingRenderer().lines(for: content))
            }
            context.warn(aboutPhotos: content.photoProblems)
            if !content.photoProblems.isEmpty { throw AppError(.invalidInput, "not every photo was added") }
        }
    }

    /// Adds `photos` to the listing `logic` shows, with a progress bar.
    static func add(_ photos: [PhotoToSend], with logic: any ListingLogic, in context: AppContext) async
        -> ScreenState<ListingContent>
    {
        let bar = PhotoUploadBar(count: photos.count, in: context, states: await logic.states()) {
            $0.content?.uploading
        }
        let state = await logic.send(.addPhotos(photos))
        bar.finish(succeeded: state.content?.photoProblems.isEmpty == true)
        return state
    }

    /// The id of the listing's photo that `text` names (an id, or the start of one shown here).
    static func photo(_ text: String, of listing: ListingContent, in context: AppContext) throws(AppError) -> String {
        let id = try context.ids.resolve(text, what: "photo")
        guard listing.product.photos.contains(where: { $0.id == id }) else {
            throw AppError(
                .notFound,
                "the listing has no photo \(text) ('bazaar product photos \(KnownIDs.short(listing.product.id))' lists them)"
            )
        }
        return id
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
        lines += photoLines(for: product)
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

    /// A line per photo, cover first: its place, short id and size.
    func photoLines(for product: Product) -> [ConsoleText] {
        guard !product.photos.isEmpty else {
            return [
                "No photos yet ('bazaar product photos add \(KnownIDs.short(product.id)) FILE…').".consoleText(.muted)
            ]
        }
        var lines: [ConsoleText] = ["Photos:".consoleText(.muted)]
        for (index, photo) in product.photos.enumerated() {
            let size = photo.width.flatMap { width in photo.height.map { "\(width)×\($0)" } } ?? "size unknown"
            lines.append(
                "  \(index + 1). ".consoleText() + KnownIDs.short(photo.id).consoleText(.muted) + "  \(size)"
                    + (index == 0 ? "  (cover)".consoleText(.info) : "".consoleText()))
        }
        return lines
    }
}
