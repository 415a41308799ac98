import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Closes a WebSocket with `1002 Protocol Error` when the client sends a frame without a mask
/// (RFC 6455 §5.1: a server must close on one). swift-websocket does not check masking, so this
/// sits after NIO's frame decoder, placed there by ``WebSocketUpgradeHook``.
final class MaskedFrameGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        guard unwrapInboundIn(data).maskKey == nil else { return context.fireChannelRead(data) }
        closing = true
        var payload = context.channel.allocator.buffer(capacity: 2)
        payload.write(webSocketErrorCode: .protocolError)
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
        context.writeAndFlush(wrapOutboundOut(close)).assumeIsolated().whenComplete { [context] _ in
            context.close(promise: nil)
        }
    }
}

/// Waits for a connection's WebSocket upgrade and then puts a ``MaskedFrameGuard`` right after
/// NIO's frame decoder, before any frame reaches swift-websocket. Added at the end of every
/// connection's pipeline by ``BazaarHTTPChannel``; it leaves once the first request has gone
/// either way (an upgrade, or a first request part passing through as plain HTTP).
final class WebSocketUpgradeHook: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is HTTPServerUpgradeEvents {
            // NIO fires this once the frame handlers are in, before replaying buffered bytes.
            let pipeline = context.pipeline.syncOperations
            do {
                let decoder = try pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
                try pipeline.addHandler(MaskedFrameGuard(), position: .after(decoder))
            } catch {
                // Without the guard, unmasked frames would pass: fail closed rather than serve unchecked.
                context.close(promise: nil)
                return
            }
            context.fireUserInboundEventTriggered(event)
            pipeline.removeHandler(context: context, promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
