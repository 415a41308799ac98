import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// `bazaar notifications [--read-all]`.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications", abstract: "Show your notifications, newest first.",
        discussion: """
            Examples:
              bazaar notifications
              bazaar notifications --read-all
              bazaar notifications --json
            """)

    @Flag(help: "Mark every notification read.") var readAll = false
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await AppCommand.run(options) { context in
            try await context.startSignedIn()
            let screen = try context.dependencies.notificationsModule.notificationsScreen()
            let content = try await context.output.loading("Loading notifications") {
                let loaded = await screen.logic.send(.load)
                guard readAll, loaded.content != nil else { return loaded }
                return await screen.logic.send(.markAllRead)
            }.content()
            context.ids.record(content.notifications.map(\.id))
            if context.json { return try context.printJSON(content.notifications) }
            context.output.write(NotificationsRenderer().lines(for: content, width: context.output.capabilities.width))
        }
    }
}
