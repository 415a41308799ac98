import BazaarAPI
import BazaarServer
import BazaarServerRuntime
import BazaarStorage
import Foundation

extension BazaarServerConfiguration {
    /// The database flags an operator's command (`bazaar-server moderators`, `photos`,
    /// `bazaar-datagen`) takes for this configuration's database.
    public var databaseArguments: [String] {
        postgres.map { ["--postgres", $0.urlWithPassword] } ?? ["--sqlite", sqlitePath]
    }

    /// Names `username` a moderator in this configuration's database (as
    /// `bazaar-server moderators add` does), beside a server that may be serving it.
    public func nameModerator(_ username: String) async throws {
        let backend = try await StorageEngines.openStore(
            configuration: self, logger: TestServer.quietLogger(label: "moderators"))
        do {
            guard try await backend.store.setRole(.moderator, username: username) != nil else {
                throw ModeratorNamingError(username: username)
            }
            await backend.close()
        } catch {
            await backend.close()
            throw error
        }
    }
}

/// No user has the name a test tried to make a moderator.
public struct ModeratorNamingError: Error, CustomStringConvertible {
    /// The name.
    public let username: String

    /// What went wrong.
    public var description: String { "no user is named \(username)" }
}
