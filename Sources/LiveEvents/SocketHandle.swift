import NIOCore
import NIOWebSocket
import Synchronization

/// A way to end one live-events socket from outside it, wherever its handshake is: the socket
/// hands over its channel as soon as the channel exists, and ``cut()`` closes it (politely, with a
/// close frame, once it is a WebSocket). A cut that comes before the channel closes the channel
/// the moment it arrives.
final class SocketHandle: Sendable {
    private struct State {
        var channel: (any Channel)?
        var isWebSocket = false
        var isCut = false
    }

    private let state = Mutex(State())

    /// The socket's channel now exists; closed at once if the socket was cut already.
    func attach(_ channel: any Channel) {
        let cutAlready = state.withLock { state in
            state.channel = channel
            return state.isCut
        }
        if cutAlready { channel.close(promise: nil) }
    }

    /// The channel has become a WebSocket: a cut now says goodbye with a close frame.
    func upgraded() {
        state.withLock { $0.isWebSocket = true }
    }

    /// Ends the socket: closes its channel now, or as soon as it exists.
    func cut() {
        let (channel, isWebSocket) = state.withLock { state in
            state.isCut = true
            return (state.channel, state.isWebSocket)
        }
        guard let channel else { return }
        guard isWebSocket else {
            channel.close(promise: nil)
            return
        }
        var code = channel.allocator.buffer(capacity: 2)
        code.write(webSocketErrorCode: .normalClosure)
        let goodbye = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: code)
        channel.writeAndFlush(goodbye).whenComplete { _ in channel.close(promise: nil) }
    }
}
