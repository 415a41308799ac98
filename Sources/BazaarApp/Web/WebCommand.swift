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
            'bazaar-demo web' does the same beside a server of its own with demo data (users ada,
            bob and cyd; password bazaar-demo).

            Examples:
              bazaar web --port 8081 --server http://127.0.0.1:8080
            """)

    @Option(help: "The port to listen on, on 127.0.0.1 (0 picks a free one).") var port = 0
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535 (got \(port))")
        }
    }

    func run() async throws {
        try await WebServing(port: port).serve(options)
    }
}

/// Serves the browser app until the process is asked to stop: what `bazaar web` runs, and
/// `bazaar-demo web` beside its own server.
package struct WebServing: Sendable {
    /// The port to listen on, on 127.0.0.1 (0 picks a free one).
    package var port: Int

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
        let web = try WebApp(
            factory: WebAccounts(serverURL: environment.serverURL, root: environment.configFolder),
            serverURL: environment.serverURL)
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
        try await app.runService()
    }
}
