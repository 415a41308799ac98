import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A Bazaar server running in this process, started by ``BazaarServer/start(configuration:logger:)``.
public struct RunningBazaarServer: Sendable {
    /// The port it listens on (the real one when configured with port 0).
    public let port: Int
    /// `http://host:port`, where clients reach it.
    public let baseURL: URL
    /// Its metrics (for example the refresh count, ``ServerMetrics/Name/refreshes``).
    public let metrics: ServerMetrics
    /// `http://host:port/metrics` when `/metrics` has a listener of its own
    /// (``BazaarServerConfiguration/metricsAddress``); `nil` when it is served beside the API.
    public let metricsURL: URL?
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Errors while starting.
    public enum StartError: Error, CustomStringConvertible {
        /// The server stopped before it listened, and why (the port taken, for example).
        case didNotStart(reason: String)

        /// A sentence for logs and the command line.
        public var description: String {
            switch self {
            case .didNotStart(let reason): "the server did not start: \(reason)"
            }
        }
    }

    static func launch(_ server: BazaarServer, logger: Logger) async throws -> RunningBazaarServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let (metricsPorts, metricsContinuation) = AsyncStream.makeStream(of: Int.self)
        let services = server.makeServices(
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            onMetricsRunning: { channel in
                metricsContinuation.yield(channel.localAddress?.port ?? 0)
                metricsContinuation.finish()
            })
        let group = ServiceGroup(services: services, logger: logger)
        let task = Task {
            defer {
                continuation.finish()
                metricsContinuation.finish()
            }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            // The group's own error says why (for example that the address is in use).
            let reason: String
            switch await task.result {
            case .failure(let error): reason = "\(error)"
            case .success: reason = "it stopped before listening"
            }
            throw StartError.didNotStart(reason: reason)
        }
        let host =
            server.configuration.host.contains(":") ? "[\(server.configuration.host)]" : server.configuration.host
        guard let url = URL(string: "http://\(host):\(port)") else {
            task.cancel()
            _ = await task.result
            throw StartError.didNotStart(reason: "\(host):\(port) does not make a URL")
        }
        var metricsURL: URL?
        if let address = server.configuration.metricsAddress {
            // The metrics listener starts before the API's, so its port is known by now.
            var metricsIterator = metricsPorts.makeAsyncIterator()
            let metricsPort = await metricsIterator.next() ?? 0
            let metricsHost = address.host.contains(":") ? "[\(address.host)]" : address.host
            metricsURL = URL(string: "http://\(metricsHost):\(metricsPort)/metrics")
        }
        return RunningBazaarServer(
            port: port, baseURL: url, metrics: server.metrics, metricsURL: metricsURL, group: group, task: task)
    }

    /// Stops gracefully (in-flight requests finish) and waits until it has stopped.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
