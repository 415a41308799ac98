import ArgumentParser
import BazaarServer
import BazaarServerRuntime
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
            --demo starts a Bazaar server in this process with demo data, as 'bazaar demo' does
            (users ada, bob and cyd; password bazaar-demo).

            Examples:
              bazaar web --demo
              bazaar web --port 8081 --server http://127.0.0.1:8080
            """)

    @Option(help: "The port to listen on, on 127.0.0.1 (0 picks a free one).") var port = 0
    @Flag(help: "Start a server in this process with demo data and a temporary database.") var demo = false
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535 (got \(port))") }
        if demo, options.server != nil { throw ValidationError("--demo starts its own server; leave out --server") }
    }

    func run() async throws {
        var options = options
        var demoServer: RunningBazaarServer?
        var demoFolder: URL?
        if demo {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bazaar-web-demo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var configuration = BazaarServerConfiguration(sqlitePath: folder.appendingPathComponent("bazaar.sqlite").path)
            configuration.port = 0
            configuration.seedDemo = true
            var logger = Logger(label: "bazaar-web-demo-server")
            logger.logLevel = .error
            let server = try await BazaarServer.start(configuration: configuration, logger: logger)
            options.server = server.baseURL.absoluteString
            if options.configDir == nil { options.configDir = folder.appendingPathComponent("app").path }
            demoServer = server
            demoFolder = folder
        }
        defer { if let demoFolder { try? FileManager.default.removeItem(at: demoFolder) } }
        let environment: AppEnvironment
        do {
            environment = try AppEnvironment.resolve(options)
        } catch {
            throw AppError(.usage, "\(error)")
        }
        let web = try WebApp(
            factory: WebAccounts(serverURL: environment.serverURL, root: environment.configFolder), serverURL: environment.serverURL)
        let port = port
        let app = Application(
            router: web.router(), configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "bazaar-web"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let line = "Bazaar is open at http://127.0.0.1:\(bound)/ (talking to \(environment.serverURL.absoluteString)); Ctrl-C stops it.\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: Logger(label: "bazaar-web"))
        try await app.runService()
        await demoServer?.stop()
    }
}
