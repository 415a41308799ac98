import NIOCore

/// Times one connection's progress through its requests and closes it when it stalls: when it
/// sits idle between requests past the idle timeout, takes longer than the header timeout to
/// send a request head, or sends a body slower than the body timeout and its rate credit allow
/// (both answered `408`). Once a request has arrived whole, no clock runs until its answer has
/// been written; after a WebSocket upgrade none runs at all (pings take over).
///
/// Event-loop confined: it is told what happens by ``ConnectionTimeoutHandler`` (bytes off the
/// socket) and ``RequestCycleHandler`` (request heads and ends, response ends), both on the
/// connection's loop, and it closes through the socket-side handler's context.
///
/// One timer, checked lazily: a phase change only moves ``deadline``. The timer is rescheduled
/// only when it would fire after the new deadline, and it is scheduled no further ahead than the
/// shortest timeout, so the next phase's deadline is normally later than it and keeps it. When it
/// fires it compares the time with the deadline then in force. A keep-alive request used to
/// cancel and schedule event-loop timers twice each (8% of a product page's server CPU).
final class ConnectionClock {
    private enum Phase {
        /// Between requests: the idle timeout runs.
        case waiting
        /// Bytes of a request head have come but not the whole head: the header timeout runs.
        case readingHead
        /// The head has come, its body has not ended: the body deadline runs.
        case readingBody
        /// A request is being answered: nothing runs.
        case serving
        /// A WebSocket now, or closed: nothing runs, ever again.
        case finished
    }

    private let headerTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    /// The body deadline's credit for each byte that arrives.
    private let creditPerByte: Int64
    /// The shortest of the timeouts: how far ahead the timer is ever scheduled.
    private let step: TimeAmount
    /// When the body being read must have ended (moved later as its bytes arrive).
    private var bodyDeadline = NIODeadline.distantFuture
    /// When the current phase runs out of time; `distantFuture` when nothing runs.
    private var deadline = NIODeadline.distantFuture
    /// When the scheduled timer fires, if one is scheduled.
    private var timerFiresAt = NIODeadline.distantFuture
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
        bodyTimeout = TimeAmount(policy.bodyTimeout)
        creditPerByte = 1_000_000_000 / Int64(max(1, policy.bodyMinimumRate))
        step = max(min(headerTimeout, idleTimeout, bodyTimeout), .milliseconds(1))
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
        timer?.cancel()
        timer = nil
        context = nil
    }

    /// `count` bytes arrived from the client.
    func bytesArrived(_ count: Int) {
        bytesSinceRequestEnded = true
        switch phase {
        case .waiting:
            phase = .readingHead
            arm(headerTimeout)
        case .readingBody:
            bodyDeadline = bodyDeadline + .nanoseconds(Int64(count) * creditPerByte)
            if deadline != .distantFuture { deadline = bodyDeadline }  // later: the timer stays
        case .readingHead, .serving, .finished:
            break
        }
    }

    /// Whether a whole request head has arrived on this connection yet.
    private(set) var hasReceivedRequestHead = false

    /// A whole request head was parsed: its body (if any) is read against the body deadline.
    func headArrived() {
        hasReceivedRequestHead = true
        guard phase != .finished else { return }
        requestsOpen += 1
        phase = .readingBody
        bodyDeadline = .now() + bodyTimeout
        disarm()
    }

    /// A request's last byte was parsed.
    func requestEnded() {
        bytesSinceRequestEnded = false
        guard phase == .readingBody else { return }
        phase = .serving
        disarm()
    }

    /// What one read from the socket brought has been through the HTTP decoder. A body still
    /// unfinished now starts its timer (a request that came whole in one read never arms one).
    func readComplete() {
        guard phase == .readingBody, deadline == .distantFuture else { return }
        arm(until: bodyDeadline)
    }

    /// A response's last part was written: with no other request open, the wait for the next begins.
    func responseEnded() {
        guard phase == .serving || phase == .readingBody else { return }
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
        timer?.cancel()
        timer = nil
    }

    /// Whether the connection is (becoming) a WebSocket: HTTP parts no longer flow.
    private(set) var isUpgraded = false

    private func arm(_ delay: TimeAmount) {
        arm(until: .now() + delay)
    }

    private func arm(until newDeadline: NIODeadline) {
        deadline = newDeadline
        if timer != nil, timerFiresAt <= newDeadline { return }  // it fires first and looks again
        guard let context else { return }
        timer?.cancel()
        schedule(at: min(newDeadline, .now() + step), on: context.eventLoop)
    }

    /// Nothing runs now; a scheduled timer finds no deadline when it fires.
    private func disarm() {
        deadline = .distantFuture
    }

    private func schedule(at fireAt: NIODeadline, on eventLoop: any EventLoop) {
        timerFiresAt = fireAt
        timer = eventLoop.assumeIsolated().scheduleTask(deadline: fireAt) { [self] in
            timer = nil
            timerFiresAt = .distantFuture
            fired()
        }
    }

    /// The timer went off: the connection's time is up, or the deadline moved and it looks again later.
    private func fired() {
        guard deadline != .distantFuture, let context else { return }
        let now = NIODeadline.now()
        if now < deadline {
            schedule(at: min(deadline, now + step), on: context.eventLoop)
        } else {
            expire()
        }
    }

    private func expire() {
        guard let context else { return }
        switch phase {
        case .waiting:
            phase = .finished
            context.close(promise: nil)
        case .readingHead:
            timedOut(context, "The request head did not arrive in time.")
        case .readingBody:
            timedOut(context, "The request body did not arrive in time.")
        case .serving, .finished:
            break
        }
    }

    /// Answers `408` with `message` and closes.
    private func timedOut(_ context: ChannelHandlerContext, _ message: String) {
        phase = .finished
        let answer = PlainErrorResponse.bytes(
            status: 408, reason: "Request Timeout", code: "request_timeout", message: message,
            allocator: context.channel.allocator)
        context.writeAndFlush(NIOAny(answer)).assumeIsolated().whenComplete { [context] _ in
            context.close(promise: nil)
        }
    }
}
