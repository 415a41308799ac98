import ArgumentParser
import Chat
import Dependencies
import Foundation

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
        static let configuration = CommandConfiguration(abstract: "List the outbox, oldest first.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run {
                let services = try AppServices(environment: try AppEnvironment.resolve(options))
                let outbox = try services.outbox(for: try await services.session())
                for entry in try await outbox.entries() {
                    print("\(entry.id)  \(Self.describe(entry.state))  \(entry.body)")
                }
            }
        }

        static func describe(_ state: OutboxState) -> String {
            switch state {
            case .queued: "queued"
            case .sending: "sending"
            case .sent: "sent"
            case .failed(let reason): "failed (\(reason))"
            }
        }
    }

    /// `bazaar outbox flush`.
    struct Flush: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deliver queued messages now.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run {
                let services = try AppServices(environment: try AppEnvironment.resolve(options))
                let outbox = try services.outbox(for: try await services.session())
                let settled = await outbox.flush()
                let entries = try await outbox.entries()
                let waiting = entries.filter { !$0.state.isFinal }.count
                print(settled ? "delivered: nothing is waiting" : "\(waiting) message(s) still queued: the server is unreachable")
                if !settled { throw AppError.unreachable("the server could not be reached; messages stay queued") }
            }
        }
    }
}
