import Hummingbird
import NIOCore

/// The request context of every Bazaar route: Hummingbird's core storage plus the client address.
public struct BazaarRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The connection, asked for its peer only when a route or a quota needs it.
    private let channel: any Channel

    /// Creates the context for a request on a channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The client's IP address (the socket's peer), used to throttle sign-ins and count quotas per
    /// address; `nil` on a Unix socket.
    ///
    /// Read when asked, not when the request arrives: off the event loop NIO takes a lock to read
    /// the peer, and formatting it is work that most requests (reads without quotas) never use.
    public var clientAddress: String? {
        channel.remoteAddress?.ipAddress
    }

    /// Bodies are read with per-route limits (``RequestBody``); this is only the outer bound.
    public var maxUploadSize: Int { RequestBody.photoLimit + 1 }
}
