import BazaarAPI
import BazaarStorage
import Foundation

/// Fans live events out to the WebSocket connections on this server of the users they are for,
/// and no one else. Events reach it through a ``LiveEventBus``.
///
/// An event is encoded to its JSON frame text once, when it is published to a user connected
/// here (or, with replicas, to the shared database), and that one string is handed to every
/// connection it goes to: a user with many devices (or a conversation whose two
/// participants each have several) costs one encoding, not one per socket.
actor EventHub {
    /// Who a socket listens as: the user whose events it gets, and the credential it opened with.
    struct Listener: Sendable {
        let userId: String
        let sessionId: String
        /// When its access token expires; ``closeExpired(now:)`` closes it then.
        let tokenExpiresAt: Date
    }

    private struct Subscriber {
        let sessionId: String
        let tokenExpiresAt: Date
        let continuation: AsyncStream<String>.Continuation
        /// Called once when the subscriber falls `backlog` frames behind.
        let onOverflow: @Sendable () -> Void
        /// Fired once when its session is revoked or its token expires.
        let close: SocketCloseSignal
    }

    /// Sockets by user (what delivery looks up, per event) …
    private var subscribers: [String: [UUID: Subscriber]] = [:]
    /// … and by session, to the user they are filed under (what a revocation looks up).
    private var sockets: [String: [UUID: String]] = [:]
    /// No socket's token expires before this (a sweep with nothing due costs one comparison).
    private var earliestExpiry = Date.distantFuture

    /// A stream of the listener's events, as the JSON text of each frame, until ``unsubscribe(userId:id:)``.
    ///
    /// At most `backlog` frames wait for a slow socket. One more ends the subscription and calls
    /// `onOverflow` (which cuts the connection): a client that reconnects catches up from the
    /// server's history, while one that never reads cannot make the server hold its events.
    /// When the listener's session is revoked or its token expires, `close` is fired and then
    /// the stream ends.
    func subscribe(
        _ listener: Listener, backlog: Int, close: SocketCloseSignal, onOverflow: @escaping @Sendable () -> Void
    ) -> (id: UUID, events: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(backlog))
        let id = UUID()
        subscribers[listener.userId, default: [:]][id] = Subscriber(
            sessionId: listener.sessionId, tokenExpiresAt: listener.tokenExpiresAt, continuation: continuation,
            onOverflow: onOverflow, close: close)
        sockets[listener.sessionId, default: [:]][id] = listener.userId
        earliestExpiry = min(earliestExpiry, listener.tokenExpiresAt)
        return (id, stream)
    }

    /// Ends one subscription.
    func unsubscribe(userId: String, id: UUID) {
        guard let subscriber = subscribers[userId]?.removeValue(forKey: id) else { return }
        subscriber.continuation.finish()
        if subscribers[userId]?.isEmpty == true { subscribers[userId] = nil }
        sockets[subscriber.sessionId]?[id] = nil
        if sockets[subscriber.sessionId]?.isEmpty == true { sockets[subscriber.sessionId] = nil }
    }

    /// Closes every socket here of the listed sessions (they were revoked); returns how many.
    @discardableResult
    func revoke(sessionIds: [String]) -> Int {
        var closed = 0
        for sessionId in sessionIds {
            for (id, userId) in sockets[sessionId] ?? [:] {
                close(userId: userId, id: id, because: .sessionRevoked)
                closed += 1
            }
        }
        return closed
    }

    /// Closes every socket whose access token has expired by `now`; returns how many.
    @discardableResult
    func closeExpired(now: Date) -> Int {
        guard earliestExpiry <= now else { return 0 }
        var closed = 0
        var earliest = Date.distantFuture
        for (userId, sockets) in subscribers {
            for (id, subscriber) in sockets {
                if subscriber.tokenExpiresAt <= now {
                    close(userId: userId, id: id, because: .tokenExpired)
                    closed += 1
                } else {
                    earliest = min(earliest, subscriber.tokenExpiresAt)
                }
            }
        }
        earliestExpiry = earliest
        return closed
    }

    /// Tells the socket why it closes, then ends its stream (in that order: see ``SocketCloseSignal``).
    private func close(userId: String, id: UUID, because reason: SocketClosing) {
        subscribers[userId]?[id]?.close.fire(reason)
        unsubscribe(userId: userId, id: id)
    }

    /// Encodes `event` and hands it to every connection of each listed user on this server; an
    /// event for users with no connection here is not encoded at all (a send's two events cost
    /// two `JSONEncoder` runs, 6% of a send's CPU, whether or not anyone was listening).
    func deliver(_ event: LiveEvent, to userIds: [String]) {
        guard userIds.contains(where: { subscribers[$0] != nil }), let frame = LiveEventFrame.encode(event) else {
            return
        }
        deliver(frame, to: userIds)
    }

    /// Hands an encoded frame to every connection of each listed user on this server; a
    /// connection that is `backlog` frames behind is dropped (see ``subscribe(_:backlog:close:onOverflow:)``).
    func deliver(_ frame: String, to userIds: [String]) {
        for userId in Set(userIds) {
            guard let sockets = subscribers[userId] else { continue }
            for (id, subscriber) in sockets {
                if case .dropped = subscriber.continuation.yield(frame) {
                    unsubscribe(userId: userId, id: id)
                    subscriber.onOverflow()
                }
            }
        }
    }

    /// Ends every subscription (at shutdown).
    func finishAll() {
        for subscriber in subscribers.values.flatMap(\.values) { subscriber.continuation.finish() }
        subscribers = [:]
        sockets = [:]
        earliestExpiry = .distantFuture
    }
}
