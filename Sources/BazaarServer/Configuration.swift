import BazaarDomain
import BazaarStorage
import Foundation
import Logging

/// Everything an operator (or a test, or `bazaar-demo`) can set on a Bazaar server.
public struct BazaarServerConfiguration: Sendable {
    /// The address to listen on; `127.0.0.1` by default.
    public var host: String
    /// The port to listen on; `0` picks a free one (read it back from ``RunningBazaarServer/port``).
    public var port: Int
    /// Where `/metrics` is served instead of beside the API, so it need not face the internet
    /// (an internal address a scraper reaches); `nil` serves it on ``host``:``port``.
    public var metricsAddress: MetricsAddress?
    /// The SQLite database file; created with its schema when missing. Unused with ``postgres``.
    public var sqlitePath: String
    /// On SQLite: the most concurrent writes that share one transaction and its `fsync` (group
    /// commit); 1 commits every write alone.
    public var sqliteMaxBatch: Int
    /// The shared PostgreSQL database of several replicas; `nil` (the default) runs on SQLite.
    /// With it, ``signingKey`` must be set, so every replica signs with the same key.
    public var postgres: PostgresURL?
    /// With PostgreSQL: the most connections this replica's pool opens.
    public var databaseConnections: Int
    /// With PostgreSQL: the longest a database operation may take (waiting for a connection
    /// included) before the request is answered 503.
    public var databaseTimeout: Duration
    /// How long an access token works.
    public var accessTokenLifetime: Duration
    /// How long an unused refresh token works.
    public var refreshTokenLifetime: Duration
    /// The HMAC key that signs access tokens (at least 32 bytes). When `nil`, the key is read from
    /// ``signingKeyPath``, or generated there (with 0600 permissions) on first start.
    public var signingKey: Data?
    /// bcrypt cost (log2 rounds, clamped to 4...31); tests use 4, production 10 or more.
    public var bcryptCost: Int
    /// How many password checks (bcrypt, for register and sign-in) may wait or run at once;
    /// past it those routes answer 503 with `Retry-After` at once, and new accounts may hold at
    /// most half of it (8 per core by default).
    public var maxPasswordChecks: Int = PasswordHasher.defaultCapacity
    /// How many uploaded photos are turned into sizes at once (one thread each, off the event
    /// loops); one more is answered 503 with `Retry-After` at once rather than held in memory
    /// while it waits (one per core by default).
    public var maxPhotoJobs: Int = ProcessInfo.processInfo.activeProcessorCount
    /// How long one size of one photo may take to decode before the upload is refused (422).
    public var photoDecodeTimeLimit: Duration = .seconds(10)
    /// How long after a refresh token is spent presenting it again returns the same successor
    /// (a client whose answer was lost) instead of revoking the session as a reuse; 0 revokes
    /// at once. While the successor is unspent only: once it has been used, the old token's
    /// return is a reuse whatever the time.
    public var refreshReuseInterval: Duration = .seconds(30)
    /// How long a graceful shutdown keeps serving after `/health/ready` turns 503, before it stops
    /// accepting connections and finishes what is in flight: a load balancer's probe period or two
    /// (zero, the default, goes straight to finishing what is in flight).
    public var drainDelay: Duration = .zero
    /// What ``drainDelay`` is measured on (tests move a manual clock).
    public var drainClock: any Clock<Duration> = ContinuousClock()
    /// Whether requests and database statements open spans on the process's tracer
    /// (`InstrumentationSystem`, which Hummingbird's tracing middleware uses): bootstrap one first
    /// (`bazaar-server --otel-endpoint` does). Off, the default, nothing on the request path
    /// touches tracing.
    public var tracing = false
    /// How long rows that serve a purpose only for a while are kept (idempotency keys, spent
    /// refresh tokens, ended sessions, notifications).
    public var retention = RetentionPolicy()
    /// How often the server prunes by ``retention``.
    public var retentionSweepInterval: Duration = .seconds(3600)
    /// How many failed logins lock a username or a client address out for a while.
    public var loginThrottle: LoginThrottle.Policy
    /// Takes the client address for login throttling from the last `X-Forwarded-For` entry (the
    /// one the proxy in front added) instead of the connection's peer. Set it only behind a proxy
    /// that sets the header; otherwise clients could choose their own address.
    public var trustForwardedFor: Bool
    /// Fills demo users, products and a conversation at start (only into an empty database).
    public var seedDemo: Bool
    /// Header and idle timeouts, and the cap on connections per client address.
    public var connections: ConnectionPolicy
    /// How fast one user may write and one address may read.
    public var quotas: QuotaPolicy
    /// The current time; tests replace it to prove expiry without sleeping.
    public var now: @Sendable () -> Date

    /// Creates a configuration; every argument has a production-ready default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        sqlitePath: String = "bazaar.sqlite",
        sqliteMaxBatch: Int = 256,
        postgres: PostgresURL? = nil,
        databaseConnections: Int = 20,
        databaseTimeout: Duration = .seconds(2),
        accessTokenLifetime: Duration = .seconds(15 * 60),
        refreshTokenLifetime: Duration = .seconds(30 * 24 * 60 * 60),
        signingKey: Data? = nil,
        bcryptCost: Int = 10,
        loginThrottle: LoginThrottle.Policy = .init(),
        trustForwardedFor: Bool = false,
        seedDemo: Bool = false,
        connections: ConnectionPolicy = ConnectionPolicy(),
        quotas: QuotaPolicy = QuotaPolicy(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.host = host
        self.port = port
        self.sqlitePath = sqlitePath
        self.sqliteMaxBatch = sqliteMaxBatch
        self.postgres = postgres
        self.databaseConnections = databaseConnections
        self.databaseTimeout = databaseTimeout
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.signingKey = signingKey
        self.bcryptCost = bcryptCost
        self.loginThrottle = loginThrottle
        self.trustForwardedFor = trustForwardedFor
        self.seedDemo = seedDemo
        self.connections = connections
        self.quotas = quotas
        self.now = now
    }

    /// Where a generated signing key is kept: beside the database, `<sqlitePath>.signing-key`.
    public var signingKeyPath: String { sqlitePath + ".signing-key" }
}

/// The address of a listener of its own for `/metrics` (``BazaarServerConfiguration/metricsAddress``).
public struct MetricsAddress: Sendable, Equatable {
    /// The address to listen on (`127.0.0.1` keeps it on this machine).
    public var host: String
    /// The port; `0` picks a free one (read it back from ``RunningBazaarServer/metricsURL``).
    public var port: Int

    /// An address for the metrics listener.
    public init(host: String = "127.0.0.1", port: Int) {
        self.host = host
        self.port = port
    }
}
