import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// `bazaar products [--search Q] [--min-price P] [--max-price P] [--seller ID] [--sort ORDER] [--status S] [--limit N]`.
struct ProductsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "products", abstract: "Browse or search what is for sale (no sign-in needed).",
        discussion: """
            The search finds every form of a word ("bikes" finds "bike"); "quoted words" must \
            appear together, -word leaves products out, and `or` accepts either side.

            Examples:
              bazaar products
              bazaar products --search bike --limit 5
              bazaar products --search '"road bike" -kids' --max-price 200 --sort price-asc
              bazaar products --seller 3f2a --status all --sort newest --json
            """)

    /// The orders a list can be shown in.
    enum Order: String, ExpressibleByArgument, CaseIterable {
        case relevance, newest
        case priceAsc = "price-asc"
        case priceDesc = "price-desc"

        var sort: ProductSort {
            switch self {
            case .relevance: .relevance
            case .newest: .newest
            case .priceAsc: .priceAscending
            case .priceDesc: .priceDescending
            }
        }
    }

    @Option(help: "Words to look for in titles and descriptions.") var search: String?
    @Option(help: "Only products costing at least this, like 20 or 4.50.") var minPrice: String?
    @Option(help: "Only products costing at most this.") var maxPrice: String?
    @Option(help: "Only this seller's products: their id, or the start of one shown here.") var seller: String?
    @Option(help: "relevance (the default with --search), newest, price-asc or price-desc.") var sort: Order?
    @Option(help: "available (the default), reserved, sold or all.") var status: ProductStatusFilter?
    @Option(help: "How many to show, 1 to 500.") var limit = 20
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        guard (1...500).contains(limit) else {
            throw ValidationError("--limit must be between 1 and 500 (got \(limit))")
        }
        for (name, value) in [("--min-price", minPrice), ("--max-price", maxPrice)] {
            if let value, Price.cents(from: value) == nil {
                throw ValidationError("\(name) must be a price like 20 or 4.50 (got '\(value)')")
            }
        }
        if let low = minPrice.flatMap(Price.cents), let high = maxPrice.flatMap(Price.cents), low > high {
            throw ValidationError("--min-price must not be more than --max-price")
        }
    }

    func run() async throws {
        try await AppCommand.run(options) { context in
            try await context.start()
            let productSearch = ProductSearch(
                text: search, minPriceCents: minPrice.flatMap(Price.cents),
                maxPriceCents: maxPrice.flatMap(Price.cents),
                sellerId: try seller.map { try context.ids.resolve($0, what: "seller") }, sort: sort?.sort,
                status: status)
            let screen = try context.dependencies.productsModule.productListScreen(pageSize: min(limit, 100))
            var content = try await context.output.loading(productSearch.isEmpty ? "Loading products" : "Searching") {
                await screen.logic.send(.search(productSearch))
                return await screen.logic.send(.loadAtLeast(limit))
            }.content()
            content.products = Array(content.products.prefix(limit))
            context.ids.record(content.products.map(\.id))
            if context.json {
                return try context.printJSON(content.products)
            }
            context.output.write(
                ProductListRenderer().lines(for: content, limit: limit, width: context.output.capabilities.width))
        }
    }
}

/// `bazaar product show | sell | edit | status | remove`.
struct ProductCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "product", abstract: "Look at one product; sell one, and change or take down your own.",
        discussion: """
            Examples:
              bazaar product show 3f2a…
              bazaar product sell --title "Road bike" --price 120 --photo bike.jpg --photo saddle.jpg
              bazaar product edit 3f2a… --price 95
              bazaar product photos 3f2a…
              bazaar product photos move 3f2a… 9c0d… --to 1
              bazaar product status 3f2a… sold --buyer 7c1e
              bazaar product remove 3f2a…
            """,
        subcommands: [Show.self, Sell.self, Edit.self, Photos.self, Status.self, Remove.self])

    /// `bazaar product show ID`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a product and its seller.",
            discussion:
                "An unknown id exits with 66.\n\nExamples:\n  bazaar product show 3f2a…\n  bazaar product show 3f2a… --json"
        )
        @Argument(help: "The product's id, or a unique prefix of one shown here.") var id: String
        @OptionGroup var options: GlobalOptions

        /// A product's page for `--json`.
        struct Page: Encodable {
            var product: Product
            var seller: User
        }

        func run() async throws {
            try await AppCommand.run(options) { context in
                try await context.start()
                let screen = try context.dependencies.productsModule.productScreen(
                    id: try context.ids.resolve(id, what: "product"))
                let content = try await context.output.loading("Loading the product") { await screen.logic.send(.load) }
                    .content()
                context.ids.record([content.seller.id, content.product.id])
                if context.json { return try context.printJSON(Page(product: content.product, seller: content.seller)) }
                context.output.write(
                    ProductDetailRenderer().lines(
                        for: content, server: context.services.environment.serverURL,
                        width: context.output.capabilities.width))
            }
        }
    }

    /// `bazaar product sell`.
    struct Sell: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put something up for sale.",
            discussion: """
                Photos (JPEG, PNG or WebP, at most 5 MiB each, 8 in all) are uploaded after the
                product is listed, the first as the cover, with a progress bar. A photo the server
                refuses is named on standard error and the listing stays (exit 65).

                Examples:
                  bazaar product sell --title "Road bike" --price 120
                  bazaar product sell --title "Lamp" --price 4.50 --currency USD --description "Brass, works"
                  bazaar product sell --title "Road bike" --price 120 --photo bike.jpg --photo saddle.jpg
                """)
        @Option(help: "What it is.") var title: String
        @Option(help: "The price, like 120 or 4.50.") var price: String
        @Option(help: "More about it.") var description = ""
        @Option(help: "An ISO 4217 code.") var currency = "EUR"
        @Option(name: .customLong("photo"), help: "A photo to add, in order (repeat for more; the first is the cover).")
        var photos: [String] = []
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                let pictures = try ImageFile.photos(photos)
                try await context.startSignedIn()
                let screen = try context.dependencies.productsModule.sellScreen()
                let draft = SellDraft(
                    title: title, description: description, price: price, currency: currency, photos: pictures)
                let bar = PhotoUploadBar(count: pictures.count, in: context, states: await screen.logic.states()) {
                    $0.content?.uploading
                }
                let state = await context.output.loading(pictures.isEmpty ? "Listing" : "Listing and uploading") {
                    await screen.logic.send(.sell(draft))
                }
                let form = try state.content()
                bar.finish(succeeded: form.photoProblems.isEmpty)
                guard let product = form.listed else {
                    throw AppError(fieldErrors: form.fieldErrors)
                }
                context.ids.record([product.id] + product.photos.map(\.id))
                if context.json {
                    try context.printJSON(product)
                } else {
                    context.output.write(ProductDetailRenderer().listed(product))
                }
                context.warn(aboutPhotos: form.photoProblems)
                if !form.photoProblems.isEmpty {
                    throw AppError(.invalidInput, "the product is listed, but not with every photo")
                }
            }
        }
    }
}

extension ProductStatusFilter: ExpressibleByArgument {}
