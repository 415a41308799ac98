import BazaarStorage
import Foundation
import Logging
import PostgresNIO
import Tracing

/// PostgreSQL as a ``StorageEngine``: replicas share the database, and with it the login
/// throttle and the live events (through `live_events` and `NOTIFY`).
public struct PostgresEngine: StorageEngine {
    /// The shared database.
    public var url: PostgresURL
    /// The most connections this replica's pool opens.
    public var maximumConnections: Int
    /// The longest a database operation may take (waiting for a connection included).
    public var operationTimeout: Duration
    /// How strict the login throttle is.
    public var loginThrottle: LoginThrottle.Policy
    /// The current time.
    public var now: @Sendable () -> Date
    /// Where the spans of statements and transactions go; `nil` (the default) for none.
    public var tracer: (any Tracer)?

    /// An engine on the database at `url`.
    public init(
        url: PostgresURL, maximumConnections: Int = 20, operationTimeout: Duration = .seconds(2),
        loginThrottle: LoginThrottle.Policy = .init(), now: @escaping @Sendable () -> Date = { Date() },
        tracer: (any Tracer)? = nil
    ) {
        self.tracer = tracer
        self.url = url
        self.maximumConnections = maximumConnections
        self.operationTimeout = operationTimeout
        self.loginThrottle = loginThrottle
        self.now = now
    }

    public func open(sink: any LiveEventSink, logger: Logger) async throws -> StorageBackend {
        try await PostgresMigrations.migrate(url: url, logger: logger)
        let database = PostgresDatabase(
            url: url, maximumConnections: maximumConnections, operationTimeout: operationTimeout, logger: logger,
            tracer: tracer)
        // Events from here on are this replica's to deliver, also those written before its listener connects.
        let startAfter =
            try await database.rows("SELECT COALESCE(MAX(seq), 0) FROM live_events").first?.decode(Int64.self) ?? 0
        let activeSessions = ActiveSessionMemo(leased: true)
        let newestMessages = NewestMessagesMemo(leased: true)
        let replicaId = UUID().uuidString
        let listener = PostgresEventListener(
            url: url, sink: sink, activeSessions: activeSessions, newestMessages: newestMessages,
            replicaId: replicaId, availability: database.availability,
            retention: max(loginThrottle.window, .seconds(600)), startAfter: startAfter, now: now, logger: logger)
        return StorageBackend(
            // A quarter of the pool for plan statements (each may carry many plans), the rest for reads.
            store: PostgresStore(
                database: database, maximumStatementsInFlight: max(1, maximumConnections / 4),
                activeSessions: activeSessions, newestMessages: newestMessages, replicaId: replicaId),
            throttle: PostgresLoginThrottle(database: database, policy: loginThrottle, now: now),
            events: PostgresEventBus(database: database, sink: sink, now: now),
            services: [PostgresDatabaseService(database: database), listener],
            memosBelieved: { activeSessions.isTrusted && newestMessages.isTrusted },
            close: { await database.close() })
    }
}
