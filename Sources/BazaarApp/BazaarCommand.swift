import ArgumentParser
import Foundation
import Logging

/// `bazaar`: the marketplace app on the terminal. Its composition root (``CompositionRoot``) is
/// the only file that imports concrete feature modules; the `bazaar` executable only calls
/// ``main()``.
package struct BazaarCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "bazaar",
        abstract: "Bazaar, the second-hand marketplace, in your terminal.",
        discussion: """
            Every command takes --server URL (default $BAZAAR_SERVER, else
            http://127.0.0.1:8080), --config-dir, --json for scripts and --no-color.

            Exit codes: 0 ok, 1 refused, 64 usage, 65 invalid input, 66 not found,
            69 server unreachable, 75 throttled, 77 not signed in or wrong password.

            Examples:
              bazaar-demo                       # watch the whole app against a built-in server
              bazaar register ada --name "Ada Lovelace"
              bazaar products --search bike
              bazaar chat open 9d4b…
            """,
        subcommands: [
            WebCommand.self, RegisterCommand.self, LoginCommand.self, LogoutCommand.self, WhoamiCommand.self,
            ProfileCommand.self, ProductsCommand.self, ProductCommand.self, ChatCommand.self, NotificationsCommand.self,
            OfferCommand.self, SavedCommand.self, SellerCommand.self, ReviewCommand.self, AccountCommand.self,
            BlockCommand.self, UnblockCommand.self, ReportCommand.self, ModerationCommand.self, OutboxCommand.self,
        ])

    /// Runs the command line; a usage mistake is one line on stderr (`bazaar: …`) and exit 64, like
    /// every other failure, instead of the parser's multi-line usage text.
    package init() {}

    package static func main() async {
        // Logs go to stderr, warnings and worse unless BAZAAR_LOG_LEVEL says otherwise.
        let level =
            ProcessInfo.processInfo.environment["BAZAAR_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            guard code != .success else { Self.exit(withError: error) }
            FileHandle.standardError.write(Data("bazaar: \(message(for: error)) (see --help)\n".utf8))
            Foundation.exit(code.rawValue)
        }
    }
}
