import BazaarAPI
import BazaarDomain
import BazaarServer
import BazaarServerRuntime
import Foundation
import Logging

/// Starts a real ``BazaarServer`` on 127.0.0.1 port 0 with a temporary SQLite file for one test.
public enum BazaarTestHarness {
    /// A new empty directory under the system's temporary directory.
    public static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bazaar-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The bytes of a WebSocket handshake for `/v1/events` with `token` as a bearer token, for
    /// tests that speak to the event route over a raw socket.
    public static func eventSocketHandshake(token: String) -> Data {
        var handshake =
            "GET \(APIRoutes.events.template) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        handshake +=
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer \(token)\r\n\r\n"
        return Data(handshake.utf8)
    }

    /// A configuration for tests: port 0, bcrypt cost 4, a 15 s database timeout, database in
    /// `directory`, the given clock.
    public static func configuration(directory: URL, clock: TestClock? = nil) -> BazaarServerConfiguration {
        var configuration = BazaarServerConfiguration(
            host: "127.0.0.1", port: 0, sqlitePath: directory.appendingPathComponent("bazaar.sqlite").path,
            bcryptCost: 4)
        // A CI machine running every suite at once can keep the test PostgreSQL from answering
        // for over the default 2 s; no in-process test is about that timeout (the replica fault
        // tests run `bazaar-server` with its own default).
        configuration.databaseTimeout = .seconds(15)
        if let clock { configuration.now = { clock.now() } }
        // Tests register many users from 127.0.0.1 within a minute; the register quota has its
        // own tests, which set it.
        configuration.quotas.registrationsPerMinutePerAddress = nil
        return configuration
    }

    /// Runs `body` against a fresh server on `storage` (a new database each time), and always
    /// stops the server afterwards.
    public static func withServer<Result: Sendable>(
        on storage: StorageKind,
        clock: TestClock? = nil,
        logger: Logger? = nil,
        _ body: (BazaarTestClient) async throws -> Result
    ) async throws -> Result {
        try await storage.withConfiguration(clock: clock) { configuration in
            try await withServer(configuration: configuration, logger: logger, body)
        }
    }

    /// Runs `body` against a fresh server on a new temporary SQLite file, with the test
    /// configuration changed by `configure` first (timeouts, quotas...).
    public static func withServer<Result: Sendable>(
        configuring configure: (inout BazaarServerConfiguration) -> Void,
        _ body: (BazaarTestClient) async throws -> Result
    ) async throws -> Result {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Self.configuration(directory: directory)
        configure(&configuration)
        return try await withServer(configuration: configuration, body)
    }

    /// Runs `body` against a fresh server (new temporary database unless `configuration` names one),
    /// and always stops the server afterwards.
    public static func withServer<Result: Sendable>(
        configuration: BazaarServerConfiguration? = nil,
        clock: TestClock? = nil,
        logger: Logger? = nil,
        _ body: (BazaarTestClient) async throws -> Result
    ) async throws -> Result {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = configuration ?? Self.configuration(directory: directory, clock: clock)
        let server = try await BazaarServer(
            configuration: configuration, logger: logger ?? TestServer.quietLogger(label: "bazaar-test"))
        return try await TestServer.run(makeServices: { onRunning in server.makeServices(onServerRunning: onRunning) })
        { url in
            try await body(BazaarTestClient(baseURL: url))
        }
    }
}
