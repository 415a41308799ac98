import Logging
import ServiceLifecycle

/// The database a server runs on, with everything that must live beside it: the store, the
/// login throttle, the live-event bus and the background services.
///
/// SQLite (one server) keeps throttle and events in the process. PostgreSQL (replicas) keeps
/// them in the database, so every replica sees the same counts and hears every event.
public struct StorageBackend: Sendable {
    /// The store the routes read and write.
    public let store: any BazaarStore
    /// Failed-login counts, in this process or shared by every replica.
    public let throttle: any LoginThrottling
    /// Where live events and product changes are announced.
    public let events: any LiveEventBus
    /// Services to run beside the HTTP server, placed before it in the service group so they
    /// stop after it has drained (the PostgreSQL pool and event listener).
    public let services: [any Service]
    /// Whether the store believes its memories now (the sessions it found active, the newest
    /// history pages): always on SQLite; on PostgreSQL while the replica's event listener vouches
    /// for them, since every session check and history page asks the database otherwise.
    public let memosBelieved: @Sendable () -> Bool
    /// Closes what the backend opened, for owners that do not run ``services`` (tests).
    private let closeAction: @Sendable () async -> Void

    /// A backend of these parts; `memosBelieved` answers ``memosBelieved`` (a store without
    /// leased memos keeps the default) and `close` releases what the engine opened.
    public init(
        store: any BazaarStore, throttle: any LoginThrottling, events: any LiveEventBus, services: [any Service],
        memosBelieved: @escaping @Sendable () -> Bool = { true }, close: @escaping @Sendable () async -> Void
    ) {
        self.store = store
        self.throttle = throttle
        self.events = events
        self.services = services
        self.memosBelieved = memosBelieved
        self.closeAction = close
    }

    /// Closes the connection pool (nothing to do for SQLite).
    public func close() async {
        await closeAction()
    }
}

/// A database engine the server can run on: it opens its database (running migrations) and
/// makes what lives beside it. The server knows engines only through this protocol; which one
/// runs is decided by a composition root (`BazaarServerRuntime`).
public protocol StorageEngine: Sendable {
    /// Opens the database; live events and product changes reach this replica through `sink`.
    func open(sink: any LiveEventSink, logger: Logger) async throws -> StorageBackend
}
