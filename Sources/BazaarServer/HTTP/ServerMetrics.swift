import CoreMetrics
import Foundation
import Prometheus
import Synchronization

/// This server's metrics: swift-metrics instruments on its own Prometheus registry.
///
/// Each server instance has its own registry (no global bootstrap), so several servers in one
/// process (tests, the app's demo) each report only their own traffic at `/metrics`.
public final class ServerMetrics: Sendable {
    /// The registry `/metrics` renders.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// A counter and a timer per route, method and status, made on their first request.
    private let requestInstruments = Mutex<[RequestKey: RequestInstruments]>([:])
    private let refreshCounters = Mutex<[String: CoreMetrics.Counter]>([:])
    private let refreshTallies = Mutex<[String: Int]>([:])
    private let liveSockets: CoreMetrics.Gauge
    private let liveSocketTally = Mutex(0)
    private let memosBelievedGauge: CoreMetrics.Gauge
    private let memosBelieved: @Sendable () -> Bool
    private let openConnections: CoreMetrics.Gauge
    private let openConnectionTally = Atomic(0)
    private let requestsInFlight: CoreMetrics.Gauge
    private let inFlightTally = Atomic(0)

    /// The metric names, for readers of `/metrics`.
    public enum Name {
        /// Requests answered, by `route`, `method` and `status`.
        public static let requests = "bazaar_http_requests_total"
        /// Request latency histogram in seconds, by `route`, `method` and `status`.
        public static let requestDuration = "bazaar_http_request_duration_seconds"
        /// Calls to `POST /v1/auth/refresh`, by `outcome` (`rotated`, `reused`, `invalid`, `malformed`).
        public static let refreshes = "bazaar_auth_refresh_total"
        /// Event WebSockets open on this server now.
        public static let liveSockets = "bazaar_live_sockets"
        /// 1 while the store believes its memories of active sessions and newest history pages,
        /// 0 while it asks the database for each (on PostgreSQL: the event listener is not
        /// vouching for them, so it is not hearing the other replicas' writes). Always 1 on SQLite.
        public static let memosBelieved = "bazaar_memos_believed"
        /// TCP connections open on the HTTP listener now, WebSockets included.
        public static let openConnections = "bazaar_http_connections_open"
        /// Requests being answered now (their handler has begun and not yet returned), the
        /// `/metrics` request reading it included.
        public static let requestsInFlight = "bazaar_http_requests_in_flight"
    }

    /// Creates metrics on a new registry; `memosBelieved` is asked each time `/metrics` is read.
    public init(memosBelieved: @escaping @Sendable () -> Bool = { true }) {
        registry = PrometheusCollectorRegistry()
        factory = PrometheusMetricsFactory(registry: registry)
        liveSockets = CoreMetrics.Gauge(label: Name.liveSockets, dimensions: [], factory: factory)
        liveSockets.record(0)
        self.memosBelieved = memosBelieved
        memosBelievedGauge = CoreMetrics.Gauge(label: Name.memosBelieved, dimensions: [], factory: factory)
        openConnections = CoreMetrics.Gauge(label: Name.openConnections, dimensions: [], factory: factory)
        requestsInFlight = CoreMetrics.Gauge(label: Name.requestsInFlight, dimensions: [], factory: factory)
    }

    /// A connection opened (`+1`) or closed (`-1`): one atomic add, the gauge set when `/metrics` is read.
    func recordConnection(_ change: Int) {
        openConnectionTally.add(change, ordering: .relaxed)
    }

    /// A request's handler began (`+1`) or returned (`-1`): one atomic add on every request, the
    /// gauge set when `/metrics` is read.
    func recordInFlight(_ change: Int) {
        inFlightTally.add(change, ordering: .relaxed)
    }

    /// How many connections are open on the HTTP listener now; the same number as
    /// `bazaar_http_connections_open` in `/metrics`.
    public func openConnectionCount() -> Int {
        openConnectionTally.load(ordering: .relaxed)
    }

    /// Records one answered request.
    ///
    /// Called for every request, so it takes one lock and hashes the three parts as they are;
    /// the label dimensions are built only the first time a route, method and status is seen.
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let key = RequestKey(route: route, method: method, status: status)
        let instruments = requestInstruments.withLock { instruments in
            if let known = instruments[key] { return known }
            let dimensions = [("route", route), ("method", method), ("status", String(status))]
            let made = RequestInstruments(
                counter: CoreMetrics.Counter(label: Name.requests, dimensions: dimensions, factory: factory),
                timer: CoreMetrics.Timer(label: Name.requestDuration, dimensions: dimensions, factory: factory))
            instruments[key] = made
            return made
        }
        instruments.counter.increment()
        instruments.timer.recordNanoseconds(
            Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Counts one refresh call with its outcome.
    func recordRefresh(outcome: String) {
        let counter = refreshCounters.withLock { counters in
            if let counter = counters[outcome] { return counter }
            let counter = CoreMetrics.Counter(
                label: Name.refreshes, dimensions: [("outcome", outcome)], factory: factory)
            counters[outcome] = counter
            return counter
        }
        counter.increment()
        refreshTallies.withLock { $0[outcome, default: 0] += 1 }
    }

    /// How many `POST /v1/auth/refresh` calls this server answered, of one outcome or (with `nil`)
    /// of all; the same numbers as `bazaar_auth_refresh_total` in `/metrics`.
    public func refreshCount(outcome: String? = nil) -> Int {
        refreshTallies.withLock { tallies in
            if let outcome { return tallies[outcome, default: 0] }
            return tallies.values.reduce(0, +)
        }
    }

    /// An event WebSocket opened (`+1`) or closed (`-1`).
    func recordLiveSocket(_ change: Int) {
        let open = liveSocketTally.withLock { tally in
            tally += change
            return tally
        }
        liveSockets.record(open)
    }

    /// How many event WebSockets are open on this server now; the same number as
    /// `bazaar_live_sockets` in `/metrics`.
    public func liveSocketCount() -> Int {
        liveSocketTally.withLock { $0 }
    }

    /// The Prometheus text exposition of every metric.
    public func render() -> String {
        memosBelievedGauge.record(memosBelieved() ? 1 : 0)
        openConnections.record(openConnectionTally.load(ordering: .relaxed))
        requestsInFlight.record(inFlightTally.load(ordering: .relaxed))
        return registry.emitToString()
    }
}

/// The labels one request is counted under.
private struct RequestKey: Hashable {
    let route: String
    let method: String
    let status: Int
}

/// The two instruments of one ``RequestKey``.
private struct RequestInstruments {
    let counter: CoreMetrics.Counter
    let timer: CoreMetrics.Timer
}
