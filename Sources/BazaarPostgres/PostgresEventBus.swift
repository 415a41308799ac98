import BazaarAPI
import BazaarStorage
import Foundation
import Logging
import PostgresNIO

/// The live-event bus of replicas sharing PostgreSQL: an event is appended to `live_events` and
/// its number sent with `NOTIFY` in one statement (`bazaar_publish`), and every replica's
/// ``PostgresEventListener`` reads the row and delivers it to the sockets it holds, this
/// replica's included. The notification carries only the number, never the event.
struct PostgresEventBus: LiveEventBus {
    /// The kinds of row in `live_events`.
    enum Kind: String {
        /// A frame for the listed users' sockets.
        case live
        /// A product was added: drop encoded product pages.
        case products
        /// Sessions were revoked: close their sockets. The row's `user_ids` column holds the
        /// session ids (written by the store in the revoking transaction).
        case revoked
        /// Messages of the listed conversations changed (the row's `user_ids` column holds
        /// conversation ids, its `frame` the id of the replica that changed them): drop their
        /// history pages (``NewestMessagesMemo``), unless this replica wrote the row.
        case history
    }

    let database: PostgresDatabase
    /// This replica's sockets and cache; the cache is dropped at once rather than when the
    /// notification comes back.
    let sink: any LiveEventSink
    let now: @Sendable () -> Date

    func publish(_ event: LiveEvent, to userIds: [String]) async {
        guard let frame = LiveEventFrame.encode(event) else { return }
        await append(.live, userIds: Array(Set(userIds)), frame: frame)
    }

    func productsChanged() async {
        sink.productsChanged()
        await append(.products, userIds: [], frame: "")
    }

    func sessionsRevoked(_ sessionIds: [String]) async {
        await append(.revoked, userIds: sessionIds, frame: "")
    }

    private func append(_ kind: Kind, userIds: [String], frame: String) async {
        do {
            try await database.rows(
                "SELECT bazaar_publish(\(kind.rawValue), \(userIds), \(frame), \(StoredValues.millis(now())))")
        } catch {
            database.logger.warning(
                "a live event could not be published",
                metadata: ["kind": "\(kind.rawValue)", "error": "\(PostgresErrorText.describe(error))"])
        }
    }
}
