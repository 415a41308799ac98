import ArgumentParser
import Foundation
import Hummingbird
import Logging
import WebUI

/// `bazaar web`: the app in a browser, served on loopback.
struct WebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web", abstract: "Use Bazaar in a browser: serves the app on 127.0.0.1.",
        discussion: """
            Prints the address to open. Each browser signs in on its own: its session, tokens and
            outbox are kept under the config folder (browsers/…); the browser holds only a cookie.
            Nothing is kept for a visitor until they sign in. A browser unused for 12 hours is
            signed out; so is every browser when the app stops, and sessions an earlier run left
            behind are revoked when it starts. Only requests for 127.0.0.1, localhost or a name
            given with --host-name are answered.
            'bazaar-demo web' does the same beside a server of its own with demo data (users ada,
            bob and cyd; password bazaar-demo).

            Examples:
              bazaar web --port 8081 --server http://127.0.0.1:8080
              bazaar web --host-name bazaar.example.org   (behind a proxy for that name)
            """)

    @Option(help: "The port to listen on, on 127.0.0.1 (0 picks a free one).") var port = 0
    @Option(help: "A host name to answer to besides 127.0.0.1 and localhost (repeatable).")
    var hostName: [String] = []
    @Option(help: "The most browsers signed in at once; past it, the one unused longest is signed out.")
    var maxSessions = 1000
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535 (got \(port))")
        }
        if let bad = hostName.first(where: { !HostNames.isValid($0) }) {
            throw ValidationError("--host-name must be a bare host name, like bazaar.example.org (got \(bad))")
        }
        guard maxSessions >= 1 else { throw ValidationError("--max-sessions must be at least 1 (got \(maxSessions))") }
    }

    func run() async throws {
        var serving = WebServing(port: port)
        serving.hostNames = HostNames(hostName)
        serving.limits.maximumSignedIn = maxSessions
        try await serving.serve(options)
    }
}

/// Serves the browser app until the process is asked to stop: what `bazaar web` runs, and
/// `bazaar-demo web` beside its own server.
package struct WebServing: Sendable {
    /// The port to listen on, on 127.0.0.1 (0 picks a free one).
    package var port: Int
    /// The host names requests may name.
    var hostNames = HostNames()
    /// How many browsers stay signed in, and for how long unused.
    var limits = SessionLimits()

    /// Serving on `port`.
    package init(port: Int) {
        self.port = port
    }

    /// Serves against the API server `serverURL` (or `$BAZAAR_SERVER`, or the default), keeping
    /// browsers' sessions under `configFolder` (or the usual config folder).
    package func serve(serverURL: String?, configFolder: String?) async throws {
        var arguments: [String] = []
        if let serverURL { arguments += ["--server", serverURL] }
        if let configFolder { arguments += ["--config-dir", configFolder] }
        try await serve(GlobalOptions.parse(arguments))
    }

    func serve(_ options: GlobalOptions) async throws {
        let environment: AppEnvironment
        do {
            environment = try AppEnvironment.resolve(options)
        } catch {
            throw AppError(.usage, "\(error)")
        }
        let folders = WebFolders(root: environment.configFolder)
        let accounts = WebAccounts(serverURL: environment.serverURL, folders: folders)
        // Folders left by an earlier run hold sessions nobody can reach any more: revoke them.
        let leftovers = folders.browserFolders()
        let web = try WebApp(
            factory: accounts, serverURL: environment.serverURL, hostNames: hostNames, limits: limits)
        let port = port
        let app = Application(
            router: web.router(),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "bazaar-web"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let line =
                    "Bazaar is open at http://127.0.0.1:\(bound)/ (talking to \(environment.serverURL.absoluteString)); Ctrl-C stops it.\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: Logger(label: "bazaar-web"))
        let sweeping = Task { await Self.endLeftovers(leftovers, with: accounts) }
        defer { sweeping.cancel() }
        try await app.runService()
        await web.endAllSessions()
    }

    /// Ends an earlier run's sessions, trying again each minute while the server cannot be reached.
    private static func endLeftovers(_ leftovers: [URL], with accounts: WebAccounts) async {
        var waiting = leftovers
        while !waiting.isEmpty, !Task.isCancelled {
            let before = waiting.count
            waiting = await accounts.endLeftovers(waiting)
            if waiting.count < before {
                let line = "Ended \(before - waiting.count) browser session(s) left by an earlier run.\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
            if !waiting.isEmpty { try? await Task.sleep(for: .seconds(60)) }
        }
    }
}
