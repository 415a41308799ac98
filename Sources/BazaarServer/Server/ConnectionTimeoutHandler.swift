import NIOCore

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
