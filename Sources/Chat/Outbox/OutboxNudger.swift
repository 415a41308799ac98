import HTTPTypes
import Networking
import Synchronization

/// A request interceptor that wakes the outbox whenever any request succeeds: the server is
/// reachable again, so queued messages need not wait out their backoff.
///
/// Install it in the performer's interceptors, then ``attach(_:)`` the outbox once it exists (the
/// outbox itself sends through that performer, so it cannot be built first).
public final class OutboxNudger: RequestInterceptor {
    private let outbox = Mutex<Outbox?>(nil)

    /// Makes a nudger with no outbox yet.
    public init() {}

    /// Wakes `outbox` from now on.
    public func attach(_ outbox: Outbox) {
        self.outbox.withLock { $0 = outbox }
    }

    /// After a successful response, nudges the outbox.
    public func didReceive(_ response: TransportResponse, for request: TransportRequest) async {
        guard response.status.kind == .successful, let outbox = outbox.withLock({ $0 }) else { return }
        await outbox.nudge()
    }
}
