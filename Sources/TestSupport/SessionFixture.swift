import BazaarAPI
import BazaarServer
import Foundation
import Networking
import NetworkingAsyncHTTPClient
import Session
import Synchronization

/// A real `bazaar-server` on a free port, plus what a client session needs: a file token store in a
/// temporary folder, a cache, and a way to read the server's own refresh count.
public struct SessionFixture: Sendable {
    /// The server's base URL.
    public let baseURL: URL
    /// A plain client for arranging data and reading answers directly.
    public let raw: BazaarTestClient
    /// Where the client keeps its tokens.
    public let tokenFile: URL
    /// The client's response cache.
    public let cache: HTTPCache
    /// The server's clock.
    public let serverClock: TestClock
    /// The server's configuration (its database, for what only the operator does).
    public let configuration: BazaarServerConfiguration

    /// Runs `body` against a fresh server whose clock is `serverClock`; the server always stops after.
    public static func with<Result: Sendable>(
        accessTokenLifetime: Duration = .seconds(120), serverClock: TestClock = TestClock(),
        _ body: (SessionFixture) async throws -> Result
    ) async throws -> Result {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = BazaarTestHarness.configuration(directory: directory, clock: serverClock)
        configuration.accessTokenLifetime = accessTokenLifetime
        return try await BazaarTestHarness.withServer(configuration: configuration) { raw in
            try await body(
                SessionFixture(
                    baseURL: raw.baseURL, raw: raw, tokenFile: directory.appendingPathComponent("client/tokens.json"),
                    cache: try HTTPCache(), serverClock: serverClock, configuration: configuration))
        }
    }

    /// A session starter on this server; `clock` is the client's clock for token expiry. A second
    /// person signed in through the kit at the same time needs a `device` of their own (their own
    /// token file).
    public func starter(
        margin: Duration = .seconds(10), clock: TestClock? = nil, device: String? = nil,
        onSessionEnded: @escaping @Sendable (String) async -> Void = { _ in }
    ) -> SessionStarter {
        let tokenFile =
            device.map { self.tokenFile.deletingLastPathComponent().appendingPathComponent("\($0).json") }
            ?? self.tokenFile
        var performer = NetworkRequestPerformer(transport: AsyncHTTPClientTransport(), cache: cache)
        performer.timeout = .seconds(30)
        let now: @Sendable () -> Date = { clock?.now() ?? Date() }
        return SessionStarter(
            client: .bazaar(baseURL: baseURL, performer: performer), tokenStore: FileTokenStore(url: tokenFile),
            refreshMargin: margin, now: now, onSessionEnded: onSessionEnded)
    }

    /// Refresh calls the server has counted, by outcome (`rotated`, `reused`, `invalid`, …), from `/metrics`.
    public func serverRefreshCount(outcome: String = "rotated") async throws -> Int {
        try await raw.metricValues {
            $0.hasPrefix(ServerMetrics.Name.refreshes) && $0.contains("outcome=\"\(outcome)\"")
        }
        .reduce(0) { $0 + Int($1) }
    }

    /// Requests the server has answered for one route template and method, any status (from
    /// `/metrics`): how a test counts what the kit really sent.
    public func serverRequestCount(_ route: APIRoute) async throws -> Int {
        try await raw.metricValues {
            $0.hasPrefix(ServerMetrics.Name.requests + "{") && $0.contains("route=\"\(route.template)\"")
                && $0.contains("method=\"\(route.method)\"")
        }.reduce(0) { $0 + Int($1) }
    }

    /// Event WebSockets open on the server now (`bazaar_live_sockets` in `/metrics`).
    public func serverLiveSockets() async throws -> Int {
        try await raw.metric(ServerMetrics.Name.liveSockets).map { Int($0) } ?? -1
    }

    /// Waits up to `timeout` until the server has `count` event WebSockets open; returns the last count seen.
    public func waitForServerLiveSockets(_ count: Int, within timeout: Duration = .seconds(10)) async throws -> Int {
        var seen = -1
        _ = try await eventually(within: timeout) {
            seen = try await serverLiveSockets()
            return seen == count
        }
        return seen
    }
}
