import CoreMetrics
import Networking

/// Records every request in swift-metrics, per endpoint: how many (by outcome and source), how
/// long, how many bytes each way, and how many retries (by reason). Give it to the performer:
///
/// ```swift
/// var performer = NetworkRequestPerformer(transport: transport)
/// performer.monitors = [MetricsRecorder()]
/// ```
///
/// The metrics, all with the dimensions `endpoint` and `method`:
///
/// | label | kind | more dimensions |
/// | --- | --- | --- |
/// | `http_client_requests_total` | counter | `outcome` (`2xx`…`5xx`, or `timed_out`, `no_connection`, …), `source` (`network`, `cache`, `revalidated`, `none`) |
/// | `http_client_request_duration_seconds` | timer | |
/// | `http_client_request_bytes_total` | counter | |
/// | `http_client_response_bytes_total` | counter | |
/// | `http_client_retries_total` | counter | `reason` (`status 503`, `timed_out`, …) |
///
/// An endpoint is the method's path with its identifiers folded into `{id}` (see
/// ``endpointTemplate(_:)``), so `/v1/products/8c1f…` and `/v1/products/9d2e…` are one
/// series; pass `endpoint:` to name them your way.
public struct MetricsRecorder: RequestEventMonitor {
    /// Put before every label (`http_client` by default).
    public let prefix: String
    private let factory: any MetricsFactory
    private let endpoint: @Sendable (String) -> String

    /// Records into `factory` (the bootstrapped one by default), naming endpoints with `endpoint`.
    public init(
        prefix: String = "http_client", factory: any MetricsFactory = MetricsSystem.factory,
        endpoint: @escaping @Sendable (_ path: String) -> String = MetricsRecorder.endpointTemplate
    ) {
        self.prefix = prefix
        self.factory = factory
        self.endpoint = endpoint
    }

    /// Records a retry or a finished request; other events need nothing.
    public func receive(_ event: RequestEvent) {
        switch event.kind {
        case .retrying(_, let reason, _):
            let dimensions = [
                ("endpoint", endpoint(event.path)), ("method", event.method), ("reason", reason.description),
            ]
            Counter(label: prefix + "_retries_total", dimensions: dimensions, factory: factory).increment()
        case .finished(let metrics):
            let dimensions = [("endpoint", endpoint(event.path)), ("method", event.method)]
            let source =
                switch metrics.source {
                case .network: "network"
                case .cache: "cache"
                case .revalidated: "revalidated"
                case nil: "none"
                }
            Counter(
                label: prefix + "_requests_total",
                dimensions: dimensions + [("outcome", metrics.outcome), ("source", source)], factory: factory
            ).increment()
            let (seconds, attoseconds) = metrics.duration.components
            Timer(label: prefix + "_request_duration_seconds", dimensions: dimensions, factory: factory)
                .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            Counter(label: prefix + "_request_bytes_total", dimensions: dimensions, factory: factory)
                .increment(by: Int(metrics.requestBytes ?? 0))
            Counter(label: prefix + "_response_bytes_total", dimensions: dimensions, factory: factory)
                .increment(by: metrics.responseBytes)
        case .started, .adapted, .servedFromCache, .revalidated:
            break
        }
    }

    /// `path` with each segment that looks like an identifier (all digits, or 16 characters or
    /// more holding a digit, as UUIDs and hashes do) replaced by `{id}`.
    @Sendable public static func endpointTemplate(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { (segment: Substring) -> String in
            let identifier =
                (!segment.isEmpty && segment.allSatisfy(\.isNumber))
                || (segment.count >= 16 && segment.contains(where: \.isNumber))
            return identifier ? "{id}" : String(segment)
        }.joined(separator: "/")
    }
}
