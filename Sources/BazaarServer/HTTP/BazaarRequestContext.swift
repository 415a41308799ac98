import Hummingbird
import NIOCore

/// The request context of every Bazaar route: Hummingbird's core storage plus the client address.
public struct BazaarRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address, used to throttle logins per address.
    public let clientAddress: String?

    /// Creates the context for a request on a channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Bodies are read with per-route limits (``RequestBody``); this is only the outer bound.
    public var maxUploadSize: Int { RequestBody.photoLimit + 1 }
}
