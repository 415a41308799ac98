import BazaarAPI
import BazaarApp
import BazaarServer
import BazaarServerRuntime
import BazaarStorage
import Foundation
import Logging

/// Demo servers in this process: SQLite, demo data, quick sign-ins, quiet logs.
struct InProcessDemoServers: DemoServerFactory {
    func start(database: String, port: Int) async throws -> any DemoServer {
        var configuration = BazaarServerConfiguration(sqlitePath: database)
        configuration.port = port
        configuration.seedDemo = true
        configuration.bcryptCost = 6  // a demo, not a production server: keep sign-ins quick
        var logger = Logger(label: "bazaar-demo-server")
        logger.logLevel = .error
        return InProcessDemoServer(running: try await BazaarServer.start(configuration: configuration, logger: logger))
    }

    func nameModerator(_ username: String, database: String) async throws {
        var logger = Logger(label: "bazaar-demo-operator")
        logger.logLevel = .error
        let backend = try await StorageEngines.openStore(
            configuration: BazaarServerConfiguration(sqlitePath: database), logger: logger)
        let named = try await backend.store.setRole(.moderator, username: username)
        await backend.close()
        guard named != nil else { throw DemoOperatorError(username: username) }
    }
}

/// The demo's operator could not name a moderator: nobody has the name.
struct DemoOperatorError: Error, CustomStringConvertible {
    let username: String

    var description: String { "no user is named \(username)" }
}

/// A running in-process server, as the demo sees it.
struct InProcessDemoServer: DemoServer {
    let running: RunningBazaarServer

    var baseURL: URL { running.baseURL }
    var port: Int { running.port }

    func stop() async {
        await running.stop()
    }
}
