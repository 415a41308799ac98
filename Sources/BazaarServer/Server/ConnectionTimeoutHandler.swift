import NIOCore
import NIOHTTP1

/// The socket-side half of a connection's timeouts: starts and stops its ``ConnectionClock`` and
/// tells it when bytes arrive. Sits first in the pipeline, where bytes are still bytes.
final class ConnectionTimeoutHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let clock: ConnectionClock

    init(clock: ConnectionClock) {
        self.clock = clock
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { clock.start(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        clock.stop()
    }

    func channelActive(context: ChannelHandlerContext) {
        clock.start(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        clock.stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        clock.bytesArrived(unwrapInboundIn(data).readableBytes)
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        clock.readComplete()
    }
}

/// The HTTP-side half of a connection's timeouts: tells its ``ConnectionClock`` when a request
/// head and a request end are parsed, when a response ends, and when the connection switches to
/// WebSocket. Sits right after the HTTP request decoder.
///
/// Once an upgrade is approved (by ``UpgradeAuthGate``, through the clock) it passes everything
/// through untouched: WebSocket bytes follow, not HTTP parts, some of them (bytes that came with
/// the handshake) before the `101` is even written. It stays in the pipeline: removing it while
/// NIO's upgrader writes the `101` stalled the upgrade.
final class RequestCycleObserver: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let clock: ConnectionClock
    /// Whether a final (not informational) response has started and not ended.
    private var responseOpen = false

    init(clock: ConnectionClock) {
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !clock.isUpgraded else { return context.fireChannelRead(data) }
        switch unwrapInboundIn(data) {
        case .head: clock.headArrived()
        case .end: clock.requestEnded()
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !clock.isUpgraded else { return context.write(data, promise: promise) }
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status == .switchingProtocols:
            clock.upgraded()
        case .head(let head) where head.status.code >= 200:
            responseOpen = true
        case .end where responseOpen:
            responseOpen = false
            clock.responseEnded()
        default:
            break
        }
        context.write(data, promise: promise)
    }
}
