import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// hummingbird-websocket's HTTP/1.1 + WebSocket child channel, with three repairs the contract needs.
///
/// - A WebSocket handshake that will be refused (no valid token) is turned into a plain request
///   before the upgrader sees it, so the router answers it with the JSON 401, instead of
///   hummingbird-websocket's empty 400 for failed upgrades.
/// - A request the HTTP parser rejects gets a 400 and the connection is closed (the WebSocket
///   channel switches NIO's own error handling off, which left such connections hanging), after
///   the answers to any valid requests pipelined before it (``RequestCycleHandler``).
/// - A connection that has not sent a whole request head yet is closed when the server stops (see
///   ``QuiesceBeforeFirstRequest``), so a stop does not wait on a client's idle pooled connection,
///   nor on a half-sent head until the header timeout.
///
/// It also adds the ``ConnectionPolicy``'s defences: the cap on connections per client address
/// (``ConnectionCapHandler``), the header and idle timeouts (``ConnectionClock``, told by
/// ``ConnectionTimeoutHandler`` and ``RequestCycleHandler``), and, after a
/// WebSocket upgrade, the close of a socket whose client sends unmasked frames (``MaskedFrameGuard``).
struct BazaarHTTPChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let inner: HTTP1WebSocketUpgradeChannel
    /// Whether a handshake request carries credentials good enough to attempt the upgrade.
    let mayUpgrade: @Sendable (HTTPRequestHead) async -> Bool
    /// The timeouts and the per-address cap.
    let policy: ConnectionPolicy
    /// Counts connections per client address; `nil` when they are not capped.
    let limiter: ConnectionLimiter?
    /// Counts the connections open, for `/metrics`.
    let metrics: ServerMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // Counted here and on close, once per connection: no handler in the pipeline for it.
        metrics.recordConnection(1)
        channel.closeFuture.whenComplete { [metrics] _ in metrics.recordConnection(-1) }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let upgrader = try pipeline.handler(
                type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            let clock = ConnectionClock(policy: policy)
            try pipeline.addHandler(QuiesceBeforeFirstRequest(clock: clock), position: .first)
            try pipeline.addHandler(ConnectionTimeoutHandler(clock: clock), position: .first)
            if let limiter { try pipeline.addHandler(ConnectionCapHandler(limiter: limiter), position: .first) }
            try pipeline.addHandler(RequestCycleHandler(clock: clock), position: .before(upgrader))
            try pipeline.addHandler(UpgradeAuthGate(mayUpgrade: mayUpgrade, clock: clock), position: .before(upgrader))
            try pipeline.addHandler(WebSocketUpgradeHook(), position: .last)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger.filteringExpectedCloses)
    }
}

/// Closes a connection that is asked to quiesce (the server is stopping) before its first whole
/// request head.
///
/// hummingbird-websocket adds the handler that reacts to the stop only once the first request has
/// decided between HTTP and WebSocket, so a connection a client opened and left idle (a pool's
/// spare, say) never heard of the stop and held the graceful shutdown forever, and one that had
/// sent part of a head held it until the header timeout. Once a head has come, the event passes
/// on to the usual handlers.
final class QuiesceBeforeFirstRequest: ChannelInboundHandler {
    typealias InboundIn = NIOAny
    /// Knows whether a request head has arrived on this connection.
    private let clock: ConnectionClock

    init(clock: ConnectionClock) {
        self.clock = clock
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !clock.hasReceivedRequestHead, event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}

/// Holds back a WebSocket handshake until its token is checked; a handshake that would be
/// refused loses its `Upgrade`/`Connection` headers and continues as an ordinary GET.
///
/// Only a connection's first request can be upgraded (NIO's upgrader leaves the pipeline after
/// it), so the gate also leaves after the first request head.
final class UpgradeAuthGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let mayUpgrade: @Sendable (HTTPRequestHead) async -> Bool
    /// Told when an upgrade is approved, so the timeouts stop and HTTP observers step aside.
    private let clock: ConnectionClock
    /// Parts that arrived while a check runs; `nil` when no check is running.
    private var held: [HTTPServerRequestPart]?

    init(mayUpgrade: @escaping @Sendable (HTTPRequestHead) async -> Bool, clock: ConnectionClock) {
        self.mayUpgrade = mayUpgrade
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if held != nil {
            held?.append(part)
            return
        }
        guard case .head(let head) = part, Self.asksForUpgrade(head) else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        held = []
        let promise = context.eventLoop.makePromise(of: Bool.self)
        let check = mayUpgrade
        promise.completeWithTask { await check(head) }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        promise.futureResult.whenComplete { result in
            let (handler, context) = bound.value
            handler.release(head: head, allowed: (try? result.get()) == true, context: context)
        }
    }

    private func release(head: HTTPRequestHead, allowed: Bool, context: ChannelHandlerContext) {
        var head = head
        if allowed { clock.upgraded() }
        if !allowed {
            head.headers.remove(name: "upgrade")
            // The HTTP parser has already seen an upgrade request and parses nothing after it,
            // so this connection ends with the answer.
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        let parts = [HTTPServerRequestPart.head(head)] + (held ?? [])
        held = nil
        for part in parts { context.fireChannelRead(wrapInboundOut(part)) }
        context.fireChannelReadComplete()
        // After a WebSocket upgrade no HTTP parts may pass through here, and later requests
        // cannot be upgraded anyway.
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    static func asksForUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.headers["upgrade"].contains { $0.lowercased().contains("websocket") }
    }
}
