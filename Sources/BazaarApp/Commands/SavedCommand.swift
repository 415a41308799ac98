import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// `bazaar saved [--add ID | --remove ID]`: the products you saved.
struct SavedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saved", abstract: "Show the products you saved, most recently saved first; save or unsave one.",
        discussion: """
            You are told when a product you saved costs less, or is sold (see 'bazaar notifications').
            An id may be the short form a table showed.

            Examples:
              bazaar saved
              bazaar saved --add 3f2a9c1e
              bazaar saved --remove 3f2a9c1e --json
            """)

    @Option(help: "Save this product first.") var add: String?
    @Option(help: "Stop saving this product first.") var remove: String?
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        guard add == nil || remove == nil else { throw ValidationError("give --add or --remove, not both") }
    }

    func run() async throws {
        try await AppCommand.run(options) { context in
            try await context.startSignedIn()
            let logic = try context.dependencies.favouritesModule.favouritesScreen().logic
            let action: FavouritesAction =
                if let add {
                    .save(productId: try context.ids.resolve(add, what: "product"))
                } else if let remove {
                    .remove(productId: try context.ids.resolve(remove, what: "product"))
                } else {
                    .load
                }
            let content = try await context.output.loading("Loading what you saved") {
                let state = await logic.send(action)
                // A removal answers the list as it was loaded: none yet, so load it now.
                guard case .remove = action, state.content != nil else { return state }
                return await logic.send(.load)
            }.content()
            context.ids.record(content.products.map(\.id))
            if context.json { return try context.printJSON(content.products) }
            context.output.write(SavedRenderer().lines(for: content, width: context.output.capabilities.width))
        }
    }
}

/// Draws the saved products; no logic.
struct SavedRenderer {
    /// The lines for `content` at `width` columns.
    func lines(for content: FavouritesContent, width: Int?) -> [ConsoleText] {
        guard !content.products.isEmpty else {
            return ["Nothing saved yet: 'bazaar saved --add ID' saves a product.".consoleText(.muted)]
        }
        let table = Table(
            columns: [
                .init("ID"), .init("TITLE", flexible: true), .init("PRICE", alignRight: true), .init("STATUS"),
                .init("SAVED BY", alignRight: true),
            ],
            rows: content.products.map { product in
                [
                    KnownIDs.short(product.id).consoleText(.muted), product.title.consoleText(), Formats.price(product),
                    product.status.rawValue.consoleText(product.status == .available ? .success : .muted),
                    "\(product.favouriteCount)".consoleText(.muted),
                ]
            })
        var lines = table.render(width: width)
        let count = content.products.count
        lines.append(
            ("\(count) saved product\(count == 1 ? "" : "s")" + (content.hasMore ? " (the newest)" : "")).consoleText(
                .muted))
        return lines
    }
}
