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
    private struct Subscriber {
        let continuation: AsyncStream<String>.Continuation
        /// Called once when the subscriber falls `backlog` frames behind.
        let onOverflow: @Sendable () -> Void
    }

    private var subscribers: [String: [UUID: Subscriber]] = [:]

    /// A stream of the user's events, as the JSON text of each frame, until ``unsubscribe(userId:id:)``.
    ///
    /// At most `backlog` frames wait for a slow socket. One more ends the subscription and calls
    /// `onOverflow` (which cuts the connection): a client that reconnects catches up from the
    /// server's history, while one that never reads cannot make the server hold its events.
    func subscribe(
        userId: String, backlog: Int, onOverflow: @escaping @Sendable () -> Void
    ) -> (id: UUID, events: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(backlog))
        let id = UUID()
        subscribers[userId, default: [:]][id] = Subscriber(continuation: continuation, onOverflow: onOverflow)
        return (id, stream)
    }

    /// Ends one subscription.
    func unsubscribe(userId: String, id: UUID) {
        subscribers[userId]?[id]?.continuation.finish()
        subscribers[userId]?[id] = nil
        if subscribers[userId]?.isEmpty == true { subscribers[userId] = nil }
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
    /// connection that is `backlog` frames behind is dropped (see ``subscribe(userId:backlog:onOverflow:)``).
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
    }
}
