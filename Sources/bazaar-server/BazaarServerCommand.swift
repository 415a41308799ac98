import ArgumentParser
import BazaarServer
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// `bazaar-server`: runs the Bazaar API on SQLite until SIGTERM or SIGINT.
@main
struct BazaarServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bazaar-server",
        abstract: "Runs the Bazaar marketplace API server.",
        discussion: """
            The access-token signing key comes from the BAZAAR_SIGNING_KEY environment variable \
            (base64, at least 32 bytes) or from <sqlite>.signing-key, created on first start.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free port.")
    var port = 8080

    @Option(name: .customLong("sqlite"), help: "The SQLite database file.")
    var sqlitePath = "bazaar.sqlite"

    @Flag(help: "Fill an empty database with demo users (password bazaar-demo), products and a conversation.")
    var seedDemo = false

    @Option(help: "Access-token lifetime in seconds.")
    var accessTokenLifetime = 900

    @Option(help: "Refresh-token lifetime in seconds.")
    var refreshTokenLifetime = 30 * 24 * 3600

    @Option(help: "bcrypt cost (4-31).")
    var bcryptCost = 10

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0-65535") }
        guard accessTokenLifetime > 0, refreshTokenLifetime > 0 else {
            throw ValidationError("token lifetimes must be positive")
        }
        guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be 4-31") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
    }

    func run() async throws {
        var logger = Logger(label: "bazaar-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var signingKey: Data?
        if let text = ProcessInfo.processInfo.environment["BAZAAR_SIGNING_KEY"] {
            guard let key = Data(base64Encoded: text) else {
                throw ValidationError("BAZAAR_SIGNING_KEY is not base64")
            }
            signingKey = key
        }
        let configuration = BazaarServerConfiguration(
            host: host, port: port, sqlitePath: sqlitePath, accessTokenLifetime: .seconds(accessTokenLifetime),
            refreshTokenLifetime: .seconds(refreshTokenLifetime), signingKey: signingKey, bcryptCost: bcryptCost,
            seedDemo: seedDemo)
        let server = try await BazaarServer(configuration: configuration, logger: logger)
        let host = self.host
        let app = server.makeApplication { channel in
            let port = channel.localAddress?.port ?? 0
            let shownHost = host.contains(":") ? "[\(host)]" : host
            // Unbuffered, so a script reading the pipe sees the URL at once.
            FileHandle.standardOutput.write(Data("bazaar-server listening on http://\(shownHost):\(port)\n".utf8))
        }
        let group = ServiceGroup(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
    }
}
