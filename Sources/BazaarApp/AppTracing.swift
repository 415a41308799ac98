import BazaarTelemetry
import Logging
import ServiceLifecycle
import Tracing

/// The app's trace export for one run: on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces-only
/// variable) names a collector, off otherwise.
///
/// The tracer is handed to the kit's performer, which opens a client span per request and sends
/// `traceparent`, so `bazaar product show …` can be followed through a replica into its database.
/// The exporter runs in the background while the command does; ``finish()`` sends what is left.
struct AppTracing: Sendable {
    /// The tracer the kit's performer uses.
    let tracer: any Tracer
    private let group: ServiceGroup
    private let running: Task<Void, Never>

    /// Starts exporting if the environment names a collector; `nil` when tracing is off.
    static func start() throws(TraceExport.Failure) -> AppTracing? {
        guard let export = try TraceExport.resolve(serviceName: "bazaar", endpoint: nil) else { return nil }
        var logger = Logger(label: "bazaar.tracing")
        logger.logLevel = .warning
        let (tracer, service) = try export.makeTracer(logger: logger)
        let group = ServiceGroup(services: [service], logger: logger)
        return AppTracing(tracer: tracer, group: group, running: Task { try? await group.run() })
    }

    /// Stops the exporter once it has sent the spans still waiting, or after `limit`, whichever
    /// comes first: a collector that is down costs a command two seconds at most (and a warning),
    /// not the exporter's retries.
    func finish(within limit: Duration = .seconds(2)) async {
        await group.triggerGracefulShutdown()
        let running = self.running
        await withTaskGroup(of: Void.self) { race in
            race.addTask { await running.value }
            race.addTask { try? await Task.sleep(for: limit) }
            await race.next()
            // The group waits for both: a cancelled exporter stops its retries.
            running.cancel()
            race.cancelAll()
        }
    }
}
