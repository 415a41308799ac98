import ArgumentParser
import Foundation

/// Where the app keeps its files and which server it talks to, from options, environment and defaults.
struct AppEnvironment: Sendable {
    /// The server's base URL.
    var serverURL: URL
    /// The folder for tokens, cache and outbox.
    var configFolder: URL

    /// The session's tokens.
    var tokenFile: URL { configFolder.appendingPathComponent("tokens.json") }
    /// The user last signed in on this device (no secrets), so a session resumes offline.
    var knownUserFile: URL { configFolder.appendingPathComponent("user.json") }
    /// One user's durable outbox: each user has their own, so a message queued by one person is
    /// never sent with another's credentials after a logout and a login as someone else.
    func outboxFile(for userID: String) -> URL {
        configFolder.appendingPathComponent("users", isDirectory: true)
            .appendingPathComponent(userID, isDirectory: true).appendingPathComponent("outbox.sqlite")
    }
    /// The ids this device has shown, for prefixes typed later.
    var knownIDsFile: URL { configFolder.appendingPathComponent("known-ids.txt") }
    /// The HTTP cache.
    var cacheFolder: URL { configFolder.appendingPathComponent("cache", isDirectory: true) }

    /// Resolves the environment: `--server`, else `BAZAAR_SERVER`, else `http://127.0.0.1:8080`;
    /// `--config-dir`, else `BAZAAR_CONFIG_DIR`, else `$XDG_CONFIG_HOME/bazaar`, else `~/.config/bazaar`.
    static func resolve(_ options: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> AppEnvironment
    {
        let server = options.server ?? environment["BAZAAR_SERVER"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ValidationError("--server must be an http or https URL, like http://127.0.0.1:8080 (got \(server))")
        }
        let folder: URL
        if let explicit = options.configDir ?? environment["BAZAAR_CONFIG_DIR"] {
            folder = URL(fileURLWithPath: explicit, isDirectory: true)
        } else if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            folder = URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("bazaar", isDirectory: true)
        } else {
            folder = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".config/bazaar", isDirectory: true)
        }
        return AppEnvironment(serverURL: url, configFolder: folder)
    }
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The Bazaar server (default: $BAZAAR_SERVER, else http://127.0.0.1:8080).")
    var server: String?

    @Option(help: "Where tokens, cache and outbox live (default: $BAZAAR_CONFIG_DIR, else $XDG_CONFIG_HOME/bazaar).")
    var configDir: String?

    @Flag(help: "Print JSON for scripts instead of tables.")
    var json = false

    @Flag(help: "No colours or animation (also when NO_COLOR is set or output is not a terminal).")
    var noColor = false
}
