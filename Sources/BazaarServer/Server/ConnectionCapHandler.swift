import NIOCore

/// Admits a new connection only while its client address holds fewer than the
/// ``ConnectionLimiter``'s cap; past it, answers `429` with `Retry-After`, reads and drops what
/// the client sends (so closing does not reset the connection before the answer is read), and
/// closes. Sits first in the pipeline.
final class ConnectionCapHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limiter: ConnectionLimiter
    /// The address this connection was counted under; `nil` when not counted.
    private var counted: String?
    private var refused = false

    init(limiter: ConnectionLimiter) {
        self.limiter = limiter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let counted { limiter.release(counted) }
        counted = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        context.fireChannelRead(data)
    }

    private func admit(context: ChannelHandlerContext) {
        guard counted == nil, !refused else { return }
        // A Unix-socket peer has no IP address; it is not capped.
        guard let peer = context.channel.remoteAddress?.ipAddress else { return }
        let address = AddressGroup.key(for: peer)
        if limiter.acquire(address) {
            counted = address
            return
        }
        refused = true
        let answer = PlainErrorResponse.bytes(
            status: 429, reason: "Too Many Requests", code: "too_many_connections",
            message: "This address holds \(limiter.cap) connections already; reuse one of them.",
            extraHeaders: [("Retry-After", "1")], allocator: context.channel.allocator)
        context.writeAndFlush(NIOAny(answer)).assumeIsolated().whenComplete { [context] _ in
            context.close(mode: .output, promise: nil)
            // Give the client a moment to read the answer, then let go of the socket.
            context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { context.close(promise: nil) }
        }
    }
}
