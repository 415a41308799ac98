import BazaarAPI
import Foundation

/// Where the routes announce what happened: live events for users' sockets, and "the product
/// list changed" for every cache of encoded product pages.
///
/// With one server (SQLite) both go straight to this process's hub and cache. With replicas on
/// PostgreSQL they go through the database, so every replica hears them (``PostgresEventBus``).
/// Announcing never fails a request: the change itself is already stored, and a client that
/// missed a live event sees the change when it next reads.
protocol LiveEventBus: Sendable {
    /// Delivers `event` to every socket of the listed users, on whichever replica they are.
    func publish(_ event: LiveEvent, to userIds: [String]) async
    /// Drops encoded product pages and products everywhere (a product was added).
    func productsChanged() async
}

/// The bus of a single server: the hub and the cache of this process.
struct InProcessEventBus: LiveEventBus {
    let hub: EventHub
    let publicReads: EncodedResponseCache

    func publish(_ event: LiveEvent, to userIds: [String]) async {
        await hub.deliver(event, to: userIds)
    }

    func productsChanged() async {
        publicReads.invalidate()
    }
}
