import Synchronization

/// Watches every request a ``NetworkRequestPerformer`` makes, as Alamofire's `EventMonitor` does:
/// for metrics, logs of your own, or tests.
///
/// ```swift
/// var performer = NetworkRequestPerformer(transport: transport)
/// performer.monitors = [MetricsRecorder()]
/// ```
///
/// Events are told synchronously on the request's own task, in order (see ``RequestEvent``):
/// return quickly, and hand slow work elsewhere. With no monitors (the default) no event is made.
public protocol RequestEventMonitor: Sendable {
    /// Takes one event.
    func receive(_ event: RequestEvent)
}

/// The monitors of one request, with what every event of it carries.
struct RequestEventSink: Sendable {
    let monitors: [any RequestEventMonitor]
    let requestID: UInt64
    let method: String
    let path: String
    /// Attempts on the network so far, counted by the retry stage: a request that fails reports
    /// them too.
    let attempts = AttemptCount()

    /// Tells every monitor.
    func emit(_ kind: RequestEvent.Kind) {
        let event = RequestEvent(requestID: requestID, method: method, path: path, kind: kind)
        for monitor in monitors { monitor.receive(event) }
    }
}

/// A count the retry stage adds to and the monitor stage reads, on the request's one task.
final class AttemptCount: Sendable {
    private let value = Atomic<Int>(0)
    /// The attempts so far.
    var count: Int { value.load(ordering: .relaxed) }
    /// Counts one more.
    func add() { value.add(1, ordering: .relaxed) }
}
