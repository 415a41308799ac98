import BazaarAPI
import Foundation
import Logging
import NIOPosix
import PostgresNIO
import ServiceLifecycle

/// The database a server runs on, with everything that must live beside it: the store, the
/// login throttle, the live-event bus and the background services.
///
/// SQLite (one server) keeps throttle and events in the process. PostgreSQL (replicas) keeps
/// them in the database, so every replica sees the same counts and hears every event.
public struct StorageBackend: Sendable {
    /// The store the routes read and write.
    public let store: any BazaarStore
    let throttle: any LoginThrottling
    let events: any LiveEventBus
    /// Services to run beside the HTTP server, placed before it in the service group so they
    /// stop after it has drained (the PostgreSQL pool and event listener).
    let services: [any Service]
    /// Closes what the backend opened, for owners that do not run ``services`` (tests).
    private let closeAction: @Sendable () async -> Void

    /// Opens the configured database (running its migrations) and what comes with it.
    static func open(
        configuration: BazaarServerConfiguration, hub: EventHub, publicReads: EncodedResponseCache, logger: Logger
    ) async throws -> StorageBackend {
        let now = configuration.now
        guard let url = configuration.postgres else {
            // Opening and migrating blocks on fsync: off the cooperative pool, so a process that
            // embeds the server (tests, `bazaar demo`) keeps its pool for answering requests.
            let path = configuration.sqlitePath
            let store = try await NIOThreadPool.singleton.runIfActive { try SQLiteStore(path: path, maxBatch: configuration.sqliteMaxBatch) }
            return StorageBackend(
                store: store, throttle: LoginThrottle(policy: configuration.loginThrottle, now: now),
                events: InProcessEventBus(hub: hub, publicReads: publicReads), services: [], closeAction: {})
        }
        try await PostgresMigrations.migrate(url: url, logger: logger)
        let database = PostgresDatabase(
            url: url, maximumConnections: configuration.databaseConnections,
            operationTimeout: configuration.databaseTimeout, logger: logger)
        // Events from here on are this replica's to deliver, also those written before its listener connects.
        let startAfter = try await database.rows("SELECT COALESCE(MAX(seq), 0) FROM live_events").first?.decode(Int64.self) ?? 0
        let listener = PostgresEventListener(
            url: url, hub: hub, publicReads: publicReads, availability: database.availability,
            retention: max(configuration.loginThrottle.window, .seconds(600)), startAfter: startAfter, now: now, logger: logger)
        return StorageBackend(
            store: PostgresStore(database: database),
            throttle: PostgresLoginThrottle(database: database, policy: configuration.loginThrottle, now: now),
            events: PostgresEventBus(database: database, publicReads: publicReads, now: now),
            services: [PostgresDatabaseService(database: database), listener],
            closeAction: { await database.close() })
    }

    /// Opens only the store of the configured database, for tests of storage itself; call
    /// ``close()`` when done.
    public static func openStore(configuration: BazaarServerConfiguration, logger: Logger) async throws -> StorageBackend {
        try await open(configuration: configuration, hub: EventHub(), publicReads: EncodedResponseCache(), logger: logger)
    }

    /// Closes the connection pool (nothing to do for SQLite).
    public func close() async {
        await closeAction()
    }
}
