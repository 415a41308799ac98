import BazaarAPI
import Foundation

/// Where the routes announce what happened: live events for users' sockets, and "the product
/// list changed" for every cache of encoded product pages.
///
/// With one server (SQLite) both go straight to this process's ``LiveEventSink``
/// (``InProcessEventBus``). With replicas on PostgreSQL they go through the database, so every
/// replica hears them. Announcing never fails a request: the change itself is already stored,
/// and a client that missed a live event sees the change when it next reads.
public protocol LiveEventBus: Sendable {
    /// Delivers `event` to every socket of the listed users, on whichever replica they are.
    func publish(_ event: LiveEvent, to userIds: [String]) async
    /// Drops encoded product pages and products everywhere (a product was added).
    func productsChanged() async
    /// Closes every socket of the listed sessions, on whichever replica it is: they were revoked.
    ///
    /// Stores announce their own revocations (``BazaarStore/revokeSession(id:now:)`` and a reused
    /// refresh token), on PostgreSQL in the revoking transaction itself, so a revocation that
    /// committed always reaches every replica's listener, also one that was reconnecting.
    func sessionsRevoked(_ sessionIds: [String]) async
}

/// What one replica holds that live events reach: its users' sockets and its cache of encoded
/// public reads. The server implements it; a storage engine's bus delivers into it, so no engine
/// knows the server's types.
public protocol LiveEventSink: Sendable {
    /// Hands `event` to this replica's sockets of the listed users; encodes it only when one of
    /// them is connected here.
    func deliver(_ event: LiveEvent, to userIds: [String]) async
    /// Hands an encoded frame (``LiveEventFrame/encode(_:)``) to this replica's sockets of the
    /// listed users.
    func deliver(frame: String, to userIds: [String]) async
    /// Drops this replica's encoded product pages and products.
    func productsChanged()
    /// Closes this replica's sockets of the listed sessions (with `1008`): they were revoked.
    func sessionsRevoked(_ sessionIds: [String]) async
}

/// The text of a live event's WebSocket frame, encoded once for every socket it goes to.
public enum LiveEventFrame {
    /// The JSON text of `event`, or `nil` in the case that cannot happen (see the comment).
    public static func encode(_ event: LiveEvent) -> String? {
        do {
            return String(decoding: try BazaarJSON.makeEncoder().encode(event), as: UTF8.self)
        } catch {
            // A LiveEvent holds only strings, integers, booleans and dates: JSONEncoder cannot fail on it.
            assertionFailure("a live event did not encode: \(error)")
            return nil
        }
    }
}

/// The bus of a single server: straight into this process's sink.
public struct InProcessEventBus: LiveEventBus {
    let sink: any LiveEventSink

    /// A bus that delivers into `sink`.
    public init(sink: any LiveEventSink) {
        self.sink = sink
    }

    public func publish(_ event: LiveEvent, to userIds: [String]) async {
        await sink.deliver(event, to: userIds)
    }

    public func productsChanged() async {
        sink.productsChanged()
    }

    public func sessionsRevoked(_ sessionIds: [String]) async {
        await sink.sessionsRevoked(sessionIds)
    }
}
