import BazaarAPI
import Foundation

/// Fans live events out to the WebSocket connections on this server of the users they are for,
/// and no one else. Events reach it through a ``LiveEventBus``.
///
/// An event is encoded to its JSON frame text once, when it is published, and that one string is
/// handed to every connection it goes to: a user with many devices (or a conversation whose two
/// participants each have several) costs one encoding, not one per socket.
actor EventHub {
    private var subscribers: [String: [UUID: AsyncStream<String>.Continuation]] = [:]

    /// A stream of the user's events, as the JSON text of each frame, until ``unsubscribe(userId:id:)``.
    func subscribe(userId: String) -> (id: UUID, events: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        subscribers[userId, default: [:]][id] = continuation
        return (id, stream)
    }

    /// Ends one subscription.
    func unsubscribe(userId: String, id: UUID) {
        subscribers[userId]?[id]?.finish()
        subscribers[userId]?[id] = nil
        if subscribers[userId]?.isEmpty == true { subscribers[userId] = nil }
    }

    /// The JSON text of an event's frame, encoded once for every socket it goes to.
    static func encode(_ event: LiveEvent) -> String? {
        do {
            return String(decoding: try BazaarJSON.makeEncoder().encode(event), as: UTF8.self)
        } catch {
            // A LiveEvent holds only strings, integers, booleans and dates: JSONEncoder cannot fail on it.
            assertionFailure("a live event did not encode: \(error)")
            return nil
        }
    }

    /// Hands an encoded frame to every connection of each listed user on this server.
    func deliver(_ frame: String, to userIds: [String]) {
        for userId in Set(userIds) {
            for continuation in subscribers[userId, default: [:]].values {
                continuation.yield(frame)
            }
        }
    }

    /// Ends every subscription (at shutdown).
    func finishAll() {
        for continuation in subscribers.values.flatMap(\.values) { continuation.finish() }
        subscribers = [:]
    }
}
