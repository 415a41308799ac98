import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Where a process's spans go: OTLP over HTTP to a collector, or nowhere.
///
/// Tracing is off unless an endpoint is named, on the command line (`--otel-endpoint`) or in the
/// standard `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`; off, no tracer is
/// made and nothing on the request path opens a span. `OTEL_SDK_DISABLED=true` turns it off even
/// with an endpoint. The other standard variables (`OTEL_EXPORTER_OTLP_PROTOCOL`, `…_HEADERS`,
/// `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`,
/// `OTEL_PROPAGATORS`) apply as swift-otel reads them. Only traces are exported: logs and metrics
/// keep their own outputs (standard error, `/metrics`).
///
/// Made once by a composition root (`bazaar-server`, the `bazaar` app), which runs ``service``
/// for the life of the process: it batches spans and sends what is left when it is shut down.
public struct TraceExport: Sendable {
    /// The base URL spans are sent to (`/v1/traces` is added), as named; `nil` when it comes from
    /// the per-signal variable and is used as it is.
    public let endpoint: String?
    /// The endpoint spans go to, as named (a base URL, or the traces-only variable's full URL).
    public let url: String
    /// The `OTEL_*` variable that named it; `nil` when the flag did.
    public let variable: String?
    /// The OpenTelemetry `service.name` unless `OTEL_SERVICE_NAME` says otherwise.
    public let serviceName: String
    /// The `service.instance.id` resource attribute (a replica's name), if any.
    public let instance: String?
    private let environment: [String: String]

    /// Why trace export could not be set up.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The endpoint is not an `http` or `https` URL with a host.
        case invalidEndpoint(String)
        /// swift-otel refused the configuration (a bad `OTEL_*` variable, for one).
        case refused(String)

        public var description: String {
            switch self {
            case .invalidEndpoint(let endpoint):
                "the OTLP endpoint \(endpoint) is not an http:// or https:// URL with a host"
            case .refused(let reason): "trace export could not be set up: \(reason)"
            }
        }
    }

    /// The export `endpoint` (a flag's value, which wins) and `environment` ask for, or `nil` when
    /// tracing is off.
    public static func resolve(
        serviceName: String, endpoint: String?, instance: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Failure) -> TraceExport? {
        if isDisabled(environment) { return nil }
        // An empty value counts as unset (compose.yaml passes an empty one through).
        let flag = endpoint.flatMap { $0.isEmpty ? nil : $0 }
        let variable =
            flag != nil
            ? nil
            : ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].first {
                environment[$0]?.isEmpty == false
            }
        guard let chosen = flag ?? variable.flatMap({ environment[$0] }) else { return nil }
        guard let url = URL(string: chosen), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else { throw .invalidEndpoint(chosen) }
        return TraceExport(
            endpoint: variable == "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" ? nil : chosen, url: chosen,
            variable: variable, serviceName: serviceName, instance: instance, environment: environment)
    }

    /// Whether `OTEL_SDK_DISABLED=true` turns tracing off whatever names an endpoint.
    public static func isDisabled(_ environment: [String: String]) -> Bool {
        environment["OTEL_SDK_DISABLED"]?.lowercased() == "true"
    }

    /// The swift-otel configuration: traces only, to the endpoint, diagnostics to `logger`.
    func configuration(logger: Logger) -> OTel.Configuration {
        var configuration = OTel.Configuration.default
        configuration.serviceName = serviceName
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .warning
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        if let instance { configuration.resourceAttributes["service.instance.id"] = instance }
        return configuration
    }

    /// The variables swift-otel is shown: those about traces and the resource only (so no variable
    /// can switch on its logs or metrics, which would take over this process's logging), and
    /// without the generic endpoint when a flag named one.
    var tracingEnvironment: [String: String] {
        var chosen = environment.filter { key, _ in
            key.hasPrefix("OTEL_EXPORTER_OTLP_") && !key.hasPrefix("OTEL_EXPORTER_OTLP_METRICS_")
                && !key.hasPrefix("OTEL_EXPORTER_OTLP_LOGS_")
                || key.hasPrefix("OTEL_TRACES_") || key.hasPrefix("OTEL_BSP_")
                || ["OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES", "OTEL_PROPAGATORS"].contains(key)
        }
        if let endpoint {
            // A flag wins over the environment, as every other setting of the server.
            chosen["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint
            chosen["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = nil
        }
        return chosen
    }

    /// Makes the process-wide tracer (`InstrumentationSystem`), which Hummingbird's tracing
    /// middleware and the database spans use; call once, before serving. Returns the service that
    /// exports spans, to run in the process's service group (first, so it stops last and sends the
    /// spans of the requests that drained).
    public func bootstrapProcessTracer(logger: Logger) throws(Failure) -> any Service {
        do {
            return try OTel.bootstrap(configuration: configuration(logger: logger), environment: tracingEnvironment)
        } catch {
            throw .refused("\(error)")
        }
    }

    /// Makes a tracer of its own, leaving `InstrumentationSystem` alone (so AsyncHTTPClient opens
    /// no spans of its own beside the kit's): for an app that hands it to the kit. The process
    /// environment applies as swift-otel reads it. Run the service while requests are made; shut
    /// it down before exiting to send the last spans.
    public func makeTracer(logger: Logger) throws(Failure) -> (tracer: any Tracer, service: any Service) {
        do {
            let backend = try OTel.makeTracingBackend(configuration: configuration(logger: logger))
            return (backend.factory, backend.service)
        } catch {
            throw .refused("\(error)")
        }
    }
}
