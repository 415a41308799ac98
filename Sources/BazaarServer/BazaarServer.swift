import BazaarAPI
import BazaarDomain
import BazaarImages
import BazaarStorage
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The Bazaar server as a library: opens storage on the engine it is given, loads the signing
/// key, and builds the Hummingbird application that serves the v1 API.
///
/// It knows storage only as a ``StorageEngine``; `BazaarServerRuntime` adds the forms without
/// one, which pick SQLite or PostgreSQL from the configuration:
///
/// ```swift
/// let server = try await BazaarServer.start(configuration: .init(port: 0, sqlitePath: path))
/// print(server.baseURL)          // http://127.0.0.1:54321
/// await server.stop()
/// ```
public struct BazaarServer: Sendable {
    /// The configuration it was made with.
    public let configuration: BazaarServerConfiguration
    /// This server's metrics (also served at `/metrics`).
    public let metrics: ServerMetrics
    let deps: ServerDependencies
    /// The database and what runs beside it.
    let backend: StorageBackend

    /// Opens the database on `storage` (running migrations), loads or creates the signing key,
    /// and seeds demo data when configured to.
    public init(
        configuration: BazaarServerConfiguration, storage: any StorageEngine,
        logger: Logger = Logger(label: "bazaar-server")
    ) async throws {
        self.configuration = configuration
        // Every line written while a request is served carries its id.
        let logger = RequestLogMetadata.installed(on: logger)
        // Checked first: a replica without the shared key must not touch the database.
        let key = try SigningKeyStore.loadOrCreate(configuration: configuration, logger: logger)
        let hub = EventHub()
        let publicReads = EncodedResponseCache()
        let backend = try await storage.open(sink: ReplicaEventSink(hub: hub, publicReads: publicReads), logger: logger)
        self.backend = backend
        let store = backend.store
        let tokens = await TokenService(
            signingKey: key, accessLifetime: configuration.accessTokenLifetime,
            refreshLifetime: configuration.refreshTokenLifetime, now: configuration.now)
        let metrics = ServerMetrics(memosBelieved: backend.memosBelieved)
        self.metrics = metrics
        // The decoy hash is a bcrypt computation: off the cooperative pool, like every other.
        let hasher = try await NIOThreadPool.singleton.runIfActive {
            [cost = configuration.bcryptCost, capacity = configuration.maxPasswordChecks] in
            PasswordHasher(cost: cost, capacity: capacity)
        }
        deps = ServerDependencies(
            store: store, tokens: tokens, authenticator: Authenticator(tokens: tokens, store: store),
            hasher: hasher,
            throttle: backend.throttle, hub: hub, events: backend.events,
            metrics: metrics, publicReads: publicReads, historyPages: EncodedHistoryPages(),
            now: { [now = configuration.now] in BazaarJSON.roundedToMillis(now()) },
            trustForwardedFor: configuration.trustForwardedFor,
            refreshReuseInterval: configuration.refreshReuseInterval,
            services: MarketplaceServices(
                store: store, events: backend.events, quotas: QuotaLimiter(policy: configuration.quotas),
                hasher: hasher, throttle: backend.throttle,
                clock: DomainClock(now: configuration.now)),
            photos: try PhotoProcessor(
                capacity: configuration.maxPhotoJobs, decodeTimeLimit: configuration.photoDecodeTimeLimit),
            readiness: ServerReadiness(), logger: logger)
        if configuration.seedDemo {
            try await DemoSeeder(deps: deps).seedIfEmpty()
        }
    }

    /// The HTTP router with every route of the contract, behind the observability and error middleware.
    func makeRouter() -> Router<BazaarRequestContext> {
        let router = Router(context: BazaarRequestContext.self)
        // /metrics is no route here when it has a listener of its own: 404, not 405.
        let served = APIRoutes.all.filter {
            configuration.metricsAddress == nil || $0.template != APIRoutes.metrics.template
        }
        let tracing = configuration.tracing
        // Fixed at start-up: without a read quota, reads skip the middleware (and its async frame).
        let readsHaveQuota = deps.quotas.limits(.read)
        // One statically composed stack, outermost first: Hummingbird calls it as one middleware,
        // where six added one by one were six calls through an existential and a closure each.
        router.addMiddleware {
            // Every log line of the request, the request's own included, carries its id.
            RequestIDMiddleware()
            if tracing {
                // A server span per request, a child of the caller's `traceparent`, named by route template.
                TracingMiddleware()
            }
            ObservabilityMiddleware(metrics: deps.metrics)
            // Outside the error middleware, so error answers carry the headers too.
            SecurityHeadersMiddleware()
            ErrorMiddleware(methods: MethodTable(served))
            if readsHaveQuota {
                ReadQuotaMiddleware(deps: deps)
            }
        }
        let groups: [any RouteGroup] = [
            AuthRoutes(deps: deps), UserRoutes(deps: deps), ProductRoutes(deps: deps), ProductPhotoRoutes(deps: deps),
            AttachmentRoutes(deps: deps),
            ConversationRoutes(deps: deps), OfferRoutes(deps: deps), TrustRoutes(deps: deps), AccountRoutes(deps: deps),
            NotificationRoutes(deps: deps), EventRoutes(deps: deps),
            HealthRoutes(deps: deps, servesMetrics: configuration.metricsAddress == nil),
        ]
        for group in groups { group.register(on: router) }
        return router
    }

    /// Every route the router serves, as `METHOD /template` (the OpenAPI coverage test reads this).
    public func routeTable() -> [String] {
        makeRouter().routes.map { "\($0.method.rawValue) \($0.path.description)" }
    }

    /// The Hummingbird application: HTTP/1.1 with the `/v1/events` WebSocket upgrade.
    ///
    /// `onServerRunning` is called with the listening channel (its local address has the port).
    public func makeApplication(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let policy = configuration.connections
        let events = EventRoutes(deps: deps, backlog: policy.webSocketBacklog)
        let webSocketResponder = events.makeWebSocketRouter().buildResponder()
        let mayUpgrade = events.handshakeCheck()
        let limiter = policy.maxConnectionsPerAddress.map(ConnectionLimiter.init(cap:))
        let metrics = metrics
        let webSocket = WebSocketServerConfiguration(
            maxFrameSize: policy.webSocketMaxFrameSize, autoPing: .enabled(timePeriod: policy.webSocketPingInterval),
            closeTimeout: .seconds(5), validateUTF8: true)
        let server = HTTPServerBuilder { responder in
            BazaarHTTPChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: webSocket),
                mayUpgrade: mayUpgrade, policy: policy, limiter: limiter, metrics: metrics)
        }
        return Application(
            router: makeRouter(),
            server: server,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "bazaar"),
            onServerRunning: onServerRunning,
            logger: deps.logger
        )
    }

    /// Everything to run in one service group, in start order: the database's services (pool,
    /// event listener), the sweep that closes sockets whose token expired, then the HTTP
    /// application, and last the ``DrainGate``. Groups stop in reverse order: at shutdown the gate
    /// turns `/health/ready` to 503 first (and waits ``BazaarServerConfiguration/drainDelay``),
    /// then in-flight requests drain before the pool closes.
    ///
    /// With ``BazaarServerConfiguration/metricsAddress`` a listener serving only `/metrics` runs
    /// too (before the API, so it stops after it); `onMetricsRunning` gets its channel.
    public func makeServices(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in },
        onMetricsRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> [any Service] {
        let sweep = SocketExpirySweep(
            hub: deps.hub, interval: configuration.connections.webSocketExpiryCheckInterval, now: configuration.now)
        let retention = RetentionSweep(
            store: backend.store, policy: configuration.retention, interval: configuration.retentionSweepInterval,
            now: configuration.now, logger: deps.logger)
        var services = backend.services + [sweep as any Service, retention]
        if let address = configuration.metricsAddress {
            let router = Router(context: BazaarRequestContext.self)
            MetricsRoutes(metrics: deps.metrics).register(on: router)
            services.append(
                Application(
                    router: router,
                    configuration: .init(address: .hostname(address.host, port: address.port), serverName: "bazaar"),
                    onServerRunning: onMetricsRunning, logger: deps.logger))
        }
        // The drain gate runs last, so a graceful shutdown reaches it first: ready turns 503 while
        // the application still serves, then the application drains.
        let gate = DrainGate(
            readiness: deps.readiness, delay: configuration.drainDelay, clock: configuration.drainClock,
            logger: deps.logger)
        return services + [makeApplication(onServerRunning: onServerRunning), gate]
    }

    /// Starts a server in this process and returns once it listens; ``RunningBazaarServer/stop()`` ends it.
    public static func start(
        configuration: BazaarServerConfiguration, storage: any StorageEngine,
        logger: Logger = Logger(label: "bazaar-server")
    ) async throws -> RunningBazaarServer {
        let server = try await BazaarServer(configuration: configuration, storage: storage, logger: logger)
        return try await RunningBazaarServer.launch(server, logger: logger)
    }
}
