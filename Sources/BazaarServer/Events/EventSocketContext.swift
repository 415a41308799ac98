import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the `/v1/events` WebSocket router: hummingbird-websocket's basic one,
/// plus the connection's channel, so a socket that falls too far behind can be cut at once
/// (its writer is stuck waiting for the client to read, so it cannot close the socket itself).
struct EventSocketContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    /// The connection.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}
