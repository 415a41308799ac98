import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// `bazaar outbox [flush]`: the messages waiting to be delivered, and delivering them now.
struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "Show queued messages, or deliver them now.",
        discussion: """
            Examples:
              bazaar outbox            # list queued, sent and failed messages
              bazaar outbox flush      # deliver what is queued, in order, exactly once
            """,
        subcommands: [List.self, Flush.self],
        defaultSubcommand: List.self)

    /// `bazaar outbox list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the outbox, oldest first.",
            discussion: "Examples:\n  bazaar outbox list\n  bazaar outbox --json")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                try await context.startSignedIn()
                let entries = try await context.dependencies.resolve((any OutboxControlling).self).entries()
                if context.json { return try context.printJSON(entries.map(OutboxEntryJSON.init)) }
                guard !entries.isEmpty else { return context.output.write("The outbox is empty.".consoleText(.muted)) }
                let table = Table(
                    columns: [.init("ID"), .init("STATE"), .init("TEXT", flexible: true)],
                    rows: entries.map { [$0.id.consoleText(.muted), Self.describe($0.state), $0.body.consoleText()] })
                context.output.write(table.render(width: context.output.capabilities.width))
            }
        }

        static func describe(_ state: OutboxState) -> ConsoleText {
            switch state {
            case .queued: "queued".consoleText(.warning)
            case .sending: "sending".consoleText(.warning)
            case .sent: "sent".consoleText(.success)
            case .failed(let reason): "failed (\(reason))".consoleText(.error)
            }
        }
    }

    /// `bazaar outbox flush`.
    struct Flush: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deliver queued messages now.",
            discussion:
                "Exits with 69 when the server cannot be reached (the messages stay queued), 74 when the outbox file refuses a write.\n\nExamples:\n  bazaar outbox flush"
        )
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                try await context.startSignedIn()
                let outbox = try context.dependencies.resolve((any OutboxControlling).self)
                let settled = await context.output.loading("Delivering") { await outbox.flush() }
                let waiting = try await outbox.entries().filter { !$0.state.isFinal }.count
                if let failure = await outbox.storageFailure {
                    throw AppError(
                        .storage, "\(failure) States not written are redone on the next run; nothing is posted twice.")
                }
                if !settled {
                    throw AppError(.unreachable, "\(waiting) message(s) still queued: the server could not be reached")
                }
                if context.json { return try context.printJSON(["waiting": waiting]) }
                context.output.write("✓ Delivered: nothing is waiting.".consoleText(.success))
            }
        }
    }
}
