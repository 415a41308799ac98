import BazaarAPI
import BazaarStorage
import Foundation

/// The rule of sending a message, written once for every storage engine.
///
/// A send is valid when its body is 1-4000 characters and its `Idempotency-Key` 1-255 visible
/// ASCII characters; it costs one of the sender's ``QuotaAction/sendMessage`` quota; it is
/// allowed only into a conversation the sender is a member of (404 otherwise, as for one that
/// does not exist), and not while either member has blocked the other (403 `blocked`, see
/// ``BlockRule``). It stores, in one transaction, the key's claim, the message, a notification
/// for the recipient and the two live events (the message to both members, the notification
/// to the recipient). The same key again with the same body and conversation answers the first
/// message and costs no quota; with anything else it is a conflict.
public struct MessageService: Sendable {
    let store: any BazaarStore
    let quotas: QuotaLimiter
    let clock: DomainClock

    /// A service writing to `store`, charging `quotas`, timing and naming with `clock`.
    package init(store: any BazaarStore, quotas: QuotaLimiter, clock: DomainClock) {
        self.store = store
        self.quotas = quotas
        self.clock = clock
    }

    /// What a send answered.
    public enum Sent: Sendable, Equatable {
        /// A new message.
        case created(Message)
        /// The message the same key made before.
        case replayed(Message)
    }

    /// Sends `body` from `senderId` into the conversation, at most once per idempotency key.
    ///
    /// - Throws: ``DomainError`` for a missing or malformed key, a body out of bounds, the quota
    ///   spent, a conversation that is not the sender's, or a key reused for another message.
    public func send(_ body: String, idempotencyKey: String?, to conversationId: String, from senderId: String)
        async throws -> Sent
    {
        let key = try Validation.idempotencyKey(idempotencyKey)
        try Validation.messageBody(body)
        try quotas.charge(.sendMessage, by: senderId)
        guard let recipientId = try await store.conversationMembers(id: conversationId)?.other(than: senderId) else {
            throw DomainError.notFound("The conversation")
        }
        let now = clock.now()
        let message = Message(
            id: clock.newId(), conversationId: conversationId, senderId: senderId, body: body, createdAt: now)
        let notification = BazaarAPI.Notification(
            id: clock.newId(), type: NotificationType.newMessage, read: false, createdAt: now,
            conversationId: conversationId, messageId: message.id)
        let plan = WritePlan([
            // Decided in the send's own transaction: no read before it, and no race with a block.
            .refuseIfBlocked(senderId, recipientId),
            .claim(IdempotencyClaim(owner: senderId, key: key, resultId: message.id)),
            .appendMessage(message),
            .notify(userId: recipientId, notification),
            .publish(.messageCreated(message), to: [recipientId, senderId]),
            .publish(.notificationCreated(notification), to: [recipientId]),
        ])
        switch try await store.apply(plan, now: now) {
        case .applied:
            return .created(message)
        case .claimTaken(let previousId):
            guard let previous = try await store.message(id: previousId),
                previous.conversationId == conversationId, previous.body == body
            else {
                throw DomainError.conflict(
                    code: "idempotency_key_reused",
                    message: "This Idempotency-Key was already used for a different message.")
            }
            // A replay of a message already sent is not a new one.
            quotas.refund(.sendMessage, by: senderId)
            return .replayed(previous)
        case .blocked:
            quotas.refund(.sendMessage, by: senderId)
            throw DomainError.blocked
        case .stale:
            // A send expects no product's version, so no store answers this for it.
            throw StoreError.corrupt("a message plan was answered as stale")
        }
    }
}
