import NIOWebSocket
import Synchronization

/// Why the server ends a live-event socket on its own: the credential it was opened with no
/// longer holds. Both close it with `1008` (policy violation); a client answers either by
/// refreshing its access token before it reconnects (which fails, ending its session, when the
/// session was revoked).
enum SocketClosing: Sendable, Equatable {
    /// The socket's session was revoked (logout, a reused refresh token), on this replica or another.
    case sessionRevoked
    /// The access token the socket was opened with has expired.
    case tokenExpired

    /// The WebSocket close code: `1008`.
    var code: WebSocketErrorCode { .policyViolation }

    /// The close frame's reason text.
    var reason: String {
        switch self {
        case .sessionRevoked: "session revoked"
        case .tokenExpired: "access token expired"
        }
    }
}

/// A one-shot signal from the ``EventHub`` to one socket's handler: the socket must close, and why.
///
/// The reason is set before the socket's event stream is finished, so a handler whose writer
/// ended first still finds it (see `EventRoutes.serve`).
final class SocketCloseSignal: Sendable {
    private let closing = Mutex<SocketClosing?>(nil)
    private let fired: AsyncStream<Never>
    private let continuation: AsyncStream<Never>.Continuation

    init() {
        (fired, continuation) = AsyncStream.makeStream(of: Never.self)
    }

    /// Why the socket must close, once ``fire(_:)`` was called.
    var reason: SocketClosing? {
        closing.withLock { $0 }
    }

    /// Records `reason` (the first one wins) and wakes ``wait()``.
    func fire(_ reason: SocketClosing) {
        closing.withLock { $0 = $0 ?? reason }
        continuation.finish()
    }

    /// Returns once ``fire(_:)`` was called, or the task is cancelled.
    func wait() async {
        for await _ in fired {}
    }
}
