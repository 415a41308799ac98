import NIOCore
import NIOHTTP1

/// The HTTP side of a connection: sees each request and response part once, right after the HTTP
/// request decoder, and tells the two rules that follow a connection's request cycle what passed.
///
/// - The ``ConnectionClock`` learns when a request head and a request end are parsed, when a
///   response ends, and when the connection switches to WebSocket (the timeouts).
/// - ``PipelinedRejection`` learns the same ends and decides when a request the parser rejected is
///   answered `400` and the connection closed; this handler writes that answer.
///
/// They share one handler because each part that passes a handler is unwrapped from `NIOAny` by
/// a dynamic cast: two handlers unwrapping the same five parts of a request were 8% of a cached
/// product page's server CPU, one does it once.
///
/// Once an upgrade is approved (by ``UpgradeAuthGate``, through the clock) it passes everything
/// through untouched: WebSocket bytes follow, not HTTP parts, some of them (bytes that came with
/// the handshake) before the `101` is even written. It stays in the pipeline: removing it while
/// NIO's upgrader writes the `101` stalled the upgrade.
final class RequestCycleHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let clock: ConnectionClock
    private var rejection = PipelinedRejection()
    /// Whether a final (not informational) response has started and not ended.
    private var responseOpen = false

    init(clock: ConnectionClock) {
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !clock.isUpgraded else { return context.fireChannelRead(data) }
        switch unwrapInboundIn(data) {
        case .head:
            clock.headArrived()
        case .end:
            clock.requestEnded()
            rejection.requestEnded()
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !clock.isUpgraded else { return context.write(data, promise: promise) }
        var decision = PipelinedRejection.Decision.wait
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status == .switchingProtocols:
            clock.upgraded()
        case .head(let head) where head.status.code >= 200:
            responseOpen = true
        case .end where responseOpen:
            responseOpen = false
            clock.responseEnded()
            decision = rejection.responseEnded()
        default:
            break
        }
        context.write(data, promise: promise)
        carryOut(decision, context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, !clock.isUpgraded, !rejection.hasFailed else {
            context.fireErrorCaught(error)
            return
        }
        carryOut(rejection.parseFailed(responseInProgress: responseOpen), context: context)
    }

    private func carryOut(_ decision: PipelinedRejection.Decision, context: ChannelHandlerContext) {
        switch decision {
        case .wait:
            return
        case .close:
            context.close(promise: nil)
        case .answerAndClose:
            let body = #"{"error":{"code":"malformed_request","message":"The request is not valid HTTP/1.1."}}"#
            var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
            buffer.writeString(body)
            let headers = HTTPHeaders([
                ("Connection", "close"), ("Content-Type", "application/json; charset=utf-8"),
                ("Content-Length", String(buffer.readableBytes)),
            ])
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
        }
    }
}
