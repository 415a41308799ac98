import ArgumentParser
import BazaarAPI
import BazaarServer
import BazaarServerRuntime
import BazaarStorage
import Foundation
import Logging

/// `bazaar-server moderators add | remove | list`: the operator names who moderates, on the
/// database the server serves, while it serves (on SQLite too: a short write beside the server's).
/// A user's role is read from the database, so no restart is needed.
struct ModeratorsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moderators", abstract: "Name who moderates reports: add, remove, list.",
        discussion: """
            Takes the same database flags as the server (--sqlite, --postgres or BAZAAR_DATABASE_URL)
            and works while it runs. An unknown username exits 66.

            Examples:
              bazaar-server moderators add ada --sqlite bazaar.sqlite
              bazaar-server moderators list --postgres postgres://bazaar@127.0.0.1/bazaar
              bazaar-server moderators remove ada --sqlite bazaar.sqlite
            """,
        subcommands: [Add.self, Remove.self, List.self], defaultSubcommand: List.self)

    /// `moderators add USERNAME`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a user a moderator.")
        @Argument(help: "The user's username.") var username: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await ModeratorsCommand.set(.moderator, username: username, database: database)
        }
    }

    /// `moderators remove USERNAME`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a moderator a member again.")
        @Argument(help: "The user's username.") var username: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await ModeratorsCommand.set(.member, username: username, database: database)
        }
    }

    /// `moderators list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The moderators, by username.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let moderators = try await ModeratorsCommand.withStore(database) { store in
                try await store.users(withRole: .moderator)
            }
            if moderators.isEmpty { print("no moderators") }
            for record in moderators { print("\(record.user.username)\t\(record.user.displayName)\t\(record.user.id)") }
        }
    }

    /// Gives `username` `role`, or exits 66 when nobody has that username.
    static func set(_ role: UserRole, username: String, database: DatabaseOptions) async throws {
        let record = try await withStore(database) { store in try await store.setRole(role, username: username) }
        guard let record else {
            FileHandle.standardError.write(Data("bazaar-server: no user is named \(username)\n".utf8))
            throw ExitCode(66)
        }
        print("\(record.user.username) is now a \(record.role.rawValue)")
    }

    /// Runs `body` on the store of the database the flags name, closing it after.
    static func withStore<Result: Sendable>(
        _ database: DatabaseOptions, _ body: (any BazaarStore) async throws -> Result
    ) async throws -> Result {
        var logger = Logger(label: "bazaar-server")
        // Errors only: the command says what went wrong itself, and PostgresNIO warns when the
        // store's first query is queued before its pool's run task has started (a harmless race
        // that printed a warning before "no user is named …").
        logger.logLevel = .error
        let configuration = BazaarServerConfiguration(sqlitePath: database.sqlite, postgres: try database.postgres())
        if configuration.postgres == nil, !FileManager.default.fileExists(atPath: configuration.sqlitePath) {
            throw ValidationError("\(configuration.sqlitePath) does not exist: give the --sqlite file the server uses")
        }
        let backend = try await StorageEngines.openStore(configuration: configuration, logger: logger)
        do {
            let result = try await body(backend.store)
            await backend.close()
            return result
        } catch {
            await backend.close()
            throw error
        }
    }
}
