import BazaarAPI
import BazaarPostgres
import BazaarSQLite
import BazaarServer
import BazaarStorage
import Logging
import Tracing

/// The composition root of storage: the engine a configuration names. PostgreSQL when
/// ``BazaarServerConfiguration/postgres`` is set, SQLite on ``BazaarServerConfiguration/sqlitePath``
/// otherwise. Nothing else in the server knows which engines exist.
public enum StorageEngines {
    /// The engine `configuration` names, with its settings.
    public static func engine(for configuration: BazaarServerConfiguration) -> any StorageEngine {
        if let url = configuration.postgres {
            return PostgresEngine(
                url: url, maximumConnections: configuration.databaseConnections,
                operationTimeout: configuration.databaseTimeout, loginThrottle: configuration.loginThrottle,
                now: configuration.now, tracer: configuration.tracing ? InstrumentationSystem.tracer : nil)
        }
        return SQLiteEngine(
            path: configuration.sqlitePath, maxBatch: configuration.sqliteMaxBatch,
            loginThrottle: configuration.loginThrottle, now: configuration.now)
    }

    /// Opens only the store of the configured database, for tests of storage itself; call
    /// ``StorageBackend/close()`` when done. Live events go nowhere.
    public static func openStore(configuration: BazaarServerConfiguration, logger: Logger) async throws
        -> StorageBackend
    {
        try await engine(for: configuration).open(sink: DiscardingEventSink(), logger: logger)
    }
}

/// A sink for a store opened without a server: events and cache drops have nowhere to go.
struct DiscardingEventSink: LiveEventSink {
    func deliver(_ event: LiveEvent, to userIds: [String]) async {}
    func deliver(frame: String, to userIds: [String]) async {}
    func productsChanged() {}
    func sessionsRevoked(_ sessionIds: [String]) async {}
}
