import BazaarAPI
import Foundation

/// Fans live events out to the WebSocket connections of the users they are for, and no one else.
actor EventHub {
    private var subscribers: [String: [UUID: AsyncStream<LiveEvent>.Continuation]] = [:]

    /// A stream of the user's events until ``unsubscribe(userId:id:)``.
    func subscribe(userId: String) -> (id: UUID, events: AsyncStream<LiveEvent>) {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(256))
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

    /// Sends the event to every connection of each listed user.
    func publish(_ event: LiveEvent, to userIds: some Sequence<String>) {
        for userId in Set(userIds) {
            for continuation in subscribers[userId, default: [:]].values {
                continuation.yield(event)
            }
        }
    }

    /// Ends every subscription (at shutdown).
    func finishAll() {
        for continuation in subscribers.values.flatMap(\.values) { continuation.finish() }
        subscribers = [:]
    }
}
