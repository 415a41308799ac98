import BazaarStorage
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// One replica's ear on the shared database: a single connection that `LISTEN`s on the event
/// channel (never one per socket) and, on each notification, reads the `live_events` rows after
/// the last one it handled and delivers them: frames to this replica's sockets, product changes
/// to its cache of encoded pages.
///
/// When the connection drops it reconnects with a growing pause; once listening again it reads
/// everything written meanwhile, so no event is lost in the gap, and drops the page cache (a
/// product may have been added unheard). Its connection state also tells
/// ``DatabaseAvailability`` when the database is back. Old rows are pruned every minute.
///
/// It also keeps the store's memos (``ActiveSessionMemo``, ``NewestMessagesMemo``) honest: a
/// `revoked` event makes the first forget those sessions before anything else is told, and a
/// `history` event written by another replica makes the second drop those conversations' pages
/// (it comes before the frames of its transaction); each ping that succeeds once it has caught up
/// renews both memos' lease (``memoLease``) from when the ping was sent, or from when the delivery
/// still under way began, whichever is earlier (so a delivery stuck for longer than the lease lets
/// the memos lapse too); and losing the connection suspends both at once.
struct PostgresEventListener: Service {
    /// How long after a successful ping the memos (active sessions, history pages) are believed: a
    /// ping a second, so a connection that died without a word leaves a change unheard for at most this.
    static let memoLease = Duration.seconds(2)

    let url: PostgresURL
    /// This replica's sockets and cache of encoded public reads.
    let sink: any LiveEventSink
    /// The store's memo of active sessions.
    let activeSessions: ActiveSessionMemo
    /// The store's memo of history pages.
    let newestMessages: NewestMessagesMemo
    /// The id in the `history` events this replica's store writes (it has told its memo already).
    let replicaId: String
    let availability: DatabaseAvailability
    /// How long handled events and login failures are kept.
    let retention: Duration
    /// The last event written before this replica started: it delivers those after it.
    let startAfter: Int64
    let now: @Sendable () -> Date
    let logger: Logger

    /// How far one connection's delivery has got, for the lease of the memo of active sessions.
    final class Delivery: Sendable {
        private struct State {
            var caughtUp = false
            /// When the catch-up under way began; `nil` while waiting for a notification.
            var busySince: ContinuousClock.Instant?
        }

        private let state = Mutex(State())

        /// A catch-up begins.
        func began() {
            state.withLock { $0.busySince = .now }
        }

        /// A catch-up has delivered everything it read.
        func ended() {
            state.withLock { state in
                state.busySince = nil
                state.caughtUp = true
            }
        }

        /// From when the memo may be vouched for after a ping sent at `pinged`: `nil` before the
        /// first catch-up has ended, else the earlier of `pinged` and the start of the catch-up
        /// under way (revocations it has yet to reach may have committed since then).
        func vouchedFrom(pinged: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            state.withLock { state in
                guard state.caughtUp else { return nil }
                return min(pinged, state.busySince ?? pinged)
            }
        }
    }

    /// The position reached and the pause before reconnecting, kept across reconnections.
    private final class Cursor: Sendable {
        private struct State {
            var lastSeq: Int64?
            var lastPrune = ContinuousClock.now
            var pause = Duration.milliseconds(100)
        }

        private let state = Mutex(State())

        /// The last event handled.
        var lastSeq: Int64? {
            get { state.withLock { $0.lastSeq } }
            set { state.withLock { $0.lastSeq = newValue } }
        }

        /// When old rows were last pruned.
        var lastPrune: ContinuousClock.Instant {
            get { state.withLock { $0.lastPrune } }
            set { state.withLock { $0.lastPrune = newValue } }
        }

        /// The pause before the next connection attempt.
        var pause: Duration {
            get { state.withLock { $0.pause } }
            set { state.withLock { $0.pause = newValue } }
        }
    }

    func run() async throws {
        let cursor = Cursor()
        cursor.lastSeq = startAfter
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown {
                    try await listenOnce(cursor)
                }
            } catch {
                // Changes made elsewhere may now go unheard: every check and page asks the database.
                activeSessions.suspend()
                newestMessages.suspend()
                if Task.isShuttingDownGracefully || Task.isCancelled { break }
                // Only a failed connection attempt says the database is unreachable; a listening
                // connection that dropped (one backend ended, say) is simply made again.
                if case ListenerError.connectFailed(let cause) = error {
                    availability.markDown(
                        PostgresDatabase.unavailabilityReason(cause) ?? "the database cannot be reached")
                }
                logger.warning(
                    "event listener disconnected; reconnecting",
                    metadata: ["error": "\(PostgresErrorText.describe(error))", "pause": "\(cursor.pause)"])
            }
            try? await Task.sleep(for: cursor.pause)
            cursor.pause = min(cursor.pause * 2, .seconds(2))
        }
    }

    /// Connects and listens until the connection stops answering or the task is cancelled.
    ///
    /// A dropped connection does not always end postgres-nio's notification sequence, and a
    /// query on it may never answer, so this does not wait on either: notifications are
    /// handled in a task of their own while this one pings the connection every second under a
    /// deadline. When a ping fails (or shutdown cancels the wait) the delivery task is cancelled,
    /// the connection closed, and this returns at once.
    private func listenOnce(_ cursor: Cursor) async throws {
        let configuration = try url.connectionConfiguration(applicationName: PostgresURL.listenerApplicationName)
        let logger = self.logger
        let connection: PostgresConnection
        do {
            connection = try await Deadline.run(.seconds(5), onTimeout: { ListenerError.timedOut }) {
                try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            }
        } catch {
            throw ListenerError.connectFailed(error)
        }
        let deliveryEnded = Mutex<(any Error)?>(nil)
        let progress = Delivery()
        let delivery = Task {
            do {
                try await deliver(on: connection, cursor, progress)
                deliveryEnded.withLock { $0 = ListenerError.notificationsEnded }
            } catch {
                deliveryEnded.withLock { $0 = error }
            }
        }
        do {
            while true {
                try await Task.sleep(for: .seconds(1))
                if let error = deliveryEnded.withLock({ $0 }) { throw error }
                let pinged = ContinuousClock.now
                try await Deadline.run(.seconds(2), onTimeout: { ListenerError.timedOut }) {
                    try await connection.query("SELECT 1", logger: logger)
                }
                // The connection was alive when the ping was sent, so a revocation committed before then
                // has been notified; it is delivered unless a catch-up is still under way.
                if let from = progress.vouchedFrom(pinged: pinged) {
                    activeSessions.trust(until: from + Self.memoLease)
                    newestMessages.trust(until: from + Self.memoLease)
                }
            }
        } catch {
            // `run` suspends the memos as this throws: once, for every way a listen ends.
            delivery.cancel()
            Task { try? await connection.close() }
            throw error
        }
    }

    /// Listens on the connection and delivers what each notification announces, telling
    /// `progress` when each catch-up begins and ends.
    private func deliver(on connection: PostgresConnection, _ cursor: Cursor, _ progress: Delivery) async throws {
        try await Self.prepareSession(connection, logger: logger)
        try await connection.listen(on: PostgresMigrations.eventChannel) { notifications in
            // Listening now: whatever commits from here on is notified, so reading now misses
            // nothing written while there was no connection (or before the first one).
            sink.productsChanged()
            progress.began()
            try await catchUp(connection, cursor)
            progress.ended()
            availability.markUp()
            cursor.pause = .milliseconds(100)
            for try await _ in notifications {
                progress.began()
                try await catchUp(connection, cursor)
                progress.ended()
                try await pruneIfDue(connection, cursor)
            }
        }
    }

    /// Readies the listener's connection before its first read: the reads of ``catchUp`` are
    /// planned with their value each time (`plan_cache_mode = force_custom_plan`).
    ///
    /// `live_events` starts empty and grows by an event per write until its rows are pruned a
    /// minute later. Left to itself, PostgreSQL keeps the generic plan of the prepared read from
    /// its first runs, when the table was small: a scan of the whole table and a sort. Measured
    /// under the load mix, that read then cost 2-8 ms of PostgreSQL's CPU, growing with the table,
    /// for a handful of new rows, until an `ANALYZE` replanned it. Planned with the number it
    /// starts after, it is a short walk of the primary key (0.02 ms) beside 0.08 ms of planning.
    static func prepareSession(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SET plan_cache_mode = force_custom_plan", logger: logger)
    }

    /// Why listening stopped without an error of the connection's own.
    enum ListenerError: Error {
        /// Connecting or a ping took longer than its deadline.
        case timedOut
        /// The notification sequence finished (the connection closed).
        case notificationsEnded
        /// No connection could be made (the database is down or unreachable).
        case connectFailed(any Error)
    }

    /// Delivers every event after the cursor, in order, and moves the cursor past them.
    private func catchUp(_ connection: PostgresConnection, _ cursor: Cursor) async throws {
        while true {
            let after = cursor.lastSeq ?? 0
            var count = 0
            for try await (seq, kind, userIds, frame) in try await connection.execute(
                PreparedStatements.LiveEventsAfter(after: after), logger: logger)
            {
                count += 1
                switch PostgresEventBus.Kind(rawValue: kind) {
                case .live: await sink.deliver(frame: frame, to: userIds)
                case .products: sink.productsChanged()
                case .revoked:
                    activeSessions.forget(userIds)  // session ids, for this kind
                    await sink.sessionsRevoked(userIds)
                case .history:
                    // Conversation ids, for this kind, and the writer's id as the frame.
                    if frame != replicaId { newestMessages.forget(conversationIds: userIds) }
                case nil: logger.warning("unknown live event kind", metadata: ["kind": "\(kind)"])
                }
                cursor.lastSeq = seq
            }
            if count < PreparedStatements.LiveEventsAfter.limit { return }
        }
    }

    /// Deletes events and login failures older than the retention, at most once a minute.
    private func pruneIfDue(_ connection: PostgresConnection, _ cursor: Cursor) async throws {
        guard cursor.lastPrune.duration(to: .now) > .seconds(60) else { return }
        cursor.lastPrune = .now
        let cutoff = StoredValues.millis(now().addingTimeInterval(-retention.timeInterval))
        try await connection.query("DELETE FROM live_events WHERE created_at < \(cutoff)", logger: logger)
        try await connection.query("DELETE FROM login_failures WHERE failed_at < \(cutoff)", logger: logger)
    }
}
