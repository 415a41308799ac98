import BazaarAPI
import BazaarDomain
import BazaarImages
import BazaarStorage
import Foundation
import Hummingbird
import Logging

/// What the route groups share: storage, auth, live events, metrics and the clock.
struct ServerDependencies: Sendable {
    let store: any BazaarStore
    let tokens: TokenService
    let authenticator: Authenticator
    let hasher: PasswordHasher
    let throttle: any LoginThrottling
    /// This server's sockets; events reach them through ``events``.
    let hub: EventHub
    /// Where routes announce live events and product changes (to every replica).
    let events: any LiveEventBus
    let metrics: ServerMetrics
    /// Encoded product pages and products, cleared when a product is added.
    let publicReads: EncodedResponseCache
    /// Encoded newest history pages, reused while a conversation's page stays the same.
    let historyPages: EncodedHistoryPages
    let now: @Sendable () -> Date
    /// Whether the login throttle reads the client address from `X-Forwarded-For`.
    let trustForwardedFor: Bool
    /// How long a spent refresh token still gets its successor again instead of revoking.
    let refreshReuseInterval: Duration
    /// The marketplace's rules (``MarketplaceServices``): what routes call to decide.
    let services: MarketplaceServices
    /// Turns uploads into photo sizes, a bounded number at once, off the event loops.
    let photos: PhotoProcessor
    /// Whether the server is draining (a graceful shutdown began).
    let readiness: ServerReadiness
    let logger: Logger

    /// Per-user write quotas and per-address read quotas (the services charge the same ones).
    var quotas: QuotaLimiter { services.quotas }

    /// A new opaque id (a random UUID in lower-case text).
    func newId() -> String {
        RandomID.make()
    }

    /// The client's address for throttles and quotas: the peer, or behind a trusted proxy the last
    /// `X-Forwarded-For` entry (the client as the proxy saw it) when it is an address, as its
    /// ``AddressGroup`` key (an IPv6 client counts with its /64).
    func clientAddress(_ request: Request, peer: String?) -> String? {
        guard trustForwardedFor, let header = request.headers.value(named: "X-Forwarded-For"),
            let last = header.split(separator: ",").last.map({ String($0.trimmingHTTPWhitespace) }),
            AddressGroup.isAddress(last)
        else { return peer.map(AddressGroup.key(for:)) }
        return AddressGroup.key(for: last)
    }
}

/// A group of routes for one domain, registered on the shared router.
protocol RouteGroup {
    /// Adds the group's routes to the router.
    func register(on router: Router<BazaarRequestContext>)
}

extension Router where Context == BazaarRequestContext {
    /// Adds a handler for a contract route (its template becomes the Hummingbird path).
    @discardableResult
    func on(
        _ route: APIRoute,
        use handler: @escaping @Sendable (Request, BazaarRequestContext) async throws -> Response
    ) -> Self {
        on(RouterPath(route.template), method: HTTPRequest.Method(route.method) ?? .get, use: handler)
    }
}

extension BazaarRequestContext {
    /// The `{id}` path parameter: 404 naming `resource` (the route's own answer for an id that
    /// names nothing, byte for byte) unless it is an id as the server makes them, so no other
    /// string (a NUL, 3 KB) reaches a store. Read it after authenticating: a caller without a
    /// token learns nothing about ids.
    func pathId(_ resource: String) throws -> String {
        guard let id = parameters.get("id"), Validation.isId(id) else { throw APIError.notFound(resource) }
        return id
    }
}

extension HTTPFields {
    /// The first value of the field with this name (case-insensitive), or `nil`.
    func value(named name: String) -> String? {
        let canonical = name.lowercased()
        return first { $0.name.canonicalName == canonical }?.value
    }
}
