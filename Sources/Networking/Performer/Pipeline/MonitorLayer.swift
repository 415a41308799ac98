import HTTPTypes
import Synchronization

/// Numbers requests across the process, for ``RequestEvent/requestID``.
private let requestIDs = Atomic<UInt64>(0)

/// Tells the performer's ``RequestEventMonitor``s that a request started and how it finished,
/// and hands the inner stages a ``RequestEventSink`` for what happens in between (the retry stage
/// tells of adaptation and retries). With no monitors the request passes straight through.
struct MonitorLayer<Next: ExchangeLayer>: ExchangeLayer {
    /// Who is told; empty for nobody.
    let monitors: [any RequestEventMonitor]
    /// The tracing stage.
    let next: Next

    func exchange(_ request: consuming TransportRequest, _ context: ExchangeContext) async throws(NetworkError)
        -> ExchangeResult
    {
        guard !monitors.isEmpty else { return try await next.exchange(request, context) }
        let path = request.head.path ?? ""
        let sink = RequestEventSink(
            monitors: monitors, requestID: requestIDs.add(1, ordering: .relaxed).newValue,
            method: request.head.method.rawValue,
            path: path.firstIndex(of: "?").map { String(path[..<$0]) } ?? path)
        let started = ContinuousClock.now
        let requestBytes = request.body.map(\.length) ?? 0
        sink.emit(.started)
        var inner = context
        inner.events = sink
        let result: ExchangeResult
        do {
            result = try await next.exchange(request, inner)
        } catch {
            sink.emit(
                .finished(
                    RequestMetrics(
                        duration: .now - started, attempts: sink.attempts.count, requestBytes: requestBytes,
                        responseBytes: 0,
                        status: nil, error: error, source: nil)))
            throw error
        }
        let source: RequestMetrics.Source
        switch result.source {
        case .cache:
            source = .cache
            sink.emit(.servedFromCache)
        case .revalidation:
            source = .revalidated
            sink.emit(.revalidated)
        case .network:
            source = .network
        }
        sink.emit(
            .finished(
                RequestMetrics(
                    duration: .now - started, attempts: result.attempts, requestBytes: requestBytes,
                    responseBytes: result.response.body.count, status: result.response.status.code, error: nil,
                    source: source)))
        return result
    }
}
