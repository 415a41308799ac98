import BazaarStorage
import Foundation
import Logging
import NIOPosix

/// SQLite as a ``StorageEngine``: one server, one file; throttle and live events stay in the
/// process.
public struct SQLiteEngine: StorageEngine {
    /// The database file; created with its schema when missing.
    public var path: String
    /// The most concurrent writes that share one transaction and its `fsync`.
    public var maxBatch: Int
    /// How strict the login throttle is.
    public var loginThrottle: LoginThrottle.Policy
    /// The current time.
    public var now: @Sendable () -> Date

    /// An engine on the file at `path`.
    public init(
        path: String, maxBatch: Int = 256, loginThrottle: LoginThrottle.Policy = .init(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.path = path
        self.maxBatch = maxBatch
        self.loginThrottle = loginThrottle
        self.now = now
    }

    public func open(sink: any LiveEventSink, logger: Logger) async throws -> StorageBackend {
        // Opening and migrating blocks on fsync: off the cooperative pool, so a process that
        // embeds the server (tests, `bazaar-demo`) keeps its pool for answering requests.
        let events = InProcessEventBus(sink: sink)
        let store = try await NIOThreadPool.singleton.runIfActive { [path, maxBatch] in
            try SQLiteStore(path: path, maxBatch: maxBatch, events: events)
        }
        return StorageBackend(
            store: store, throttle: LoginThrottle(policy: loginThrottle, now: now), events: events, services: [],
            close: {})
    }
}
