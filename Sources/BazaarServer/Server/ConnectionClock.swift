import NIOCore

/// Times one connection's progress through its requests and closes it when it stalls: when it
/// sits idle between requests past the idle timeout, or takes longer than the header timeout to
/// send a request head (answered `408`). Once a request head has arrived, no clock runs until its
/// answer has been written; after a WebSocket upgrade none runs at all (pings take over).
///
/// Event-loop confined: it is told what happens by ``ConnectionTimeoutHandler`` (bytes off the
/// socket) and ``RequestCycleObserver`` (request heads and ends, response ends), both on the
/// connection's loop, and it closes through the socket-side handler's context.
final class ConnectionClock {
    private enum Phase {
        /// Between requests: the idle timeout runs.
        case waiting
        /// Bytes of a request head have come but not the whole head: the header timeout runs.
        case readingHead
        /// A request is being answered: nothing runs.
        case serving
        /// A WebSocket now, or closed: nothing runs, ever again.
        case finished
    }

    private let headerTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private var phase = Phase.waiting
    /// Request heads received whose answers have not ended.
    private var requestsOpen = 0
    /// Whether bytes came after the last request ended: the start of the next request.
    private var bytesSinceRequestEnded = false
    private var timer: Scheduled<Void>?
    /// The socket-side handler's context, to answer and close through; `nil` once detached.
    private var context: ChannelHandlerContext?

    init(policy: ConnectionPolicy) {
        headerTimeout = TimeAmount(policy.headerTimeout)
        idleTimeout = TimeAmount(policy.idleTimeout)
    }

    /// The connection is open: start the idle clock (a connection that never sends is closed too).
    func start(context: ChannelHandlerContext) {
        guard self.context == nil, phase == .waiting else { return }
        self.context = context
        arm(idleTimeout)
    }

    /// The connection has closed: stop the clock and let go of the context.
    func stop() {
        phase = .finished
        disarm()
        context = nil
    }

    /// Bytes arrived from the client.
    func bytesArrived() {
        bytesSinceRequestEnded = true
        guard phase == .waiting else { return }
        phase = .readingHead
        arm(headerTimeout)
    }

    /// A whole request head was parsed.
    func headArrived() {
        guard phase != .finished else { return }
        requestsOpen += 1
        phase = .serving
        disarm()
    }

    /// A request's last byte was parsed.
    func requestEnded() {
        bytesSinceRequestEnded = false
    }

    /// A response's last part was written: with no other request open, the wait for the next begins.
    func responseEnded() {
        guard phase == .serving else { return }
        requestsOpen = max(0, requestsOpen - 1)
        guard requestsOpen == 0 else { return }
        if bytesSinceRequestEnded {
            phase = .readingHead
            arm(headerTimeout)
        } else {
            phase = .waiting
            arm(idleTimeout)
        }
    }

    /// The connection is becoming a WebSocket: its upgrade was approved.
    func upgraded() {
        isUpgraded = true
        phase = .finished
        disarm()
    }

    /// Whether the connection is (becoming) a WebSocket: HTTP parts no longer flow.
    private(set) var isUpgraded = false

    private func arm(_ delay: TimeAmount) {
        disarm()
        guard let context else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            timer = nil
            expire()
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }

    private func expire() {
        guard let context else { return }
        switch phase {
        case .waiting:
            phase = .finished
            context.close(promise: nil)
        case .readingHead:
            phase = .finished
            let answer = PlainErrorResponse.bytes(
                status: 408, reason: "Request Timeout", code: "request_timeout",
                message: "The request head did not arrive in time.", allocator: context.channel.allocator)
            context.writeAndFlush(NIOAny(answer)).assumeIsolated().whenComplete { [context] _ in
                context.close(promise: nil)
            }
        case .serving, .finished:
            break
        }
    }
}
