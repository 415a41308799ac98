import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Runs a real Hummingbird application on 127.0.0.1 with a free port for the length of a test.
///
/// The server is started before `body` runs, answers real HTTP on loopback, and is always shut
/// down afterwards (also when `body` throws), so tests can run in parallel without fixed ports.
public enum TestServer {
    /// The callback an application calls once it is listening; `run` uses it to learn the port.
    public typealias OnServerRunning = @Sendable (any Channel) async -> Void

    /// Errors the harness itself can raise.
    public enum HarnessError: Error, CustomStringConvertible {
        /// The application stopped before it reported a listening port.
        case didNotStart

        public var description: String { "the test server stopped before it was listening" }
    }

    /// Serves `router` on a free loopback port and runs `body` with the server's base URL.
    public static func withRouter<Context: RequestContext, Result: Sendable>(
        _ router: Router<Context>,
        _ body: (URL) async throws -> Result
    ) async throws -> Result where Context.Source == ApplicationRequestContextSource {
        try await run(
            makeApplication: { onRunning in
                Application(
                    router: router,
                    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: onRunning,
                    logger: quietLogger(label: "test-server")
                )
            },
            body
        )
    }

    /// Builds an application with the given start callback, runs it, and runs `body` with its base URL.
    ///
    /// Use this form for applications that are built elsewhere (the Bazaar server, for one): the
    /// builder must pass `onRunning` to the application's `onServerRunning` and bind port 0.
    public static func run<App: ApplicationProtocol, Result: Sendable>(
        makeApplication: (@escaping OnServerRunning) -> App,
        _ body: (URL) async throws -> Result
    ) async throws -> Result {
        try await run(makeServices: { onRunning in [makeApplication(onRunning)] }, body)
    }

    /// Runs the services in one group (the last one the application that calls `onRunning`),
    /// and runs `body` with the application's base URL; stops them all afterwards, in reverse order.
    public static func run<Result: Sendable>(
        makeServices: (@escaping OnServerRunning) -> [any Service],
        _ body: (URL) async throws -> Result
    ) async throws -> Result {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let serviceList = makeServices { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        }
        let services = ServiceGroup(
            configuration: .init(
                services: serviceList, gracefulShutdownSignals: [], logger: quietLogger(label: "test-services")))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }
                try await services.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0,
                let url = URL(string: "http://127.0.0.1:\(port)")
            else {
                group.cancelAll()
                throw HarnessError.didNotStart
            }
            // A graceful shutdown lets requests in flight finish, as in production.
            do {
                let result = try await body(url)
                await services.triggerGracefulShutdown()
                try await group.waitForAll()
                return result
            } catch {
                await services.triggerGracefulShutdown()
                group.cancelAll()
                throw error
            }
        }
    }

    /// A logger that only reports problems, so test output stays readable.
    public static func quietLogger(label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = .warning
        return logger
    }
}
