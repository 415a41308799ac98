import BazaarAPI
import BazaarStorage
import Foundation

/// Opening conversations and marking them read, written once for every storage engine.
///
/// A conversation is between the caller and another user who has an account (a deleted one
/// names no one), optionally about a product one of the two sells, and never between two who
/// blocked one another (``BlockRule``). Opening the same one again finds it. Marking read tells
/// the other member live, unless a block stands between them.
public struct ConversationService: Sendable {
    let store: any BazaarStore
    let events: any LiveEventBus
    let quotas: QuotaLimiter
    let clock: DomainClock
    private var blocks: BlockRule { BlockRule(store: store) }

    /// A service over `store`, announcing on `events`, charging `quotas`, on `clock`.
    package init(store: any BazaarStore, events: any LiveEventBus, quotas: QuotaLimiter, clock: DomainClock) {
        self.store = store
        self.events = events
        self.quotas = quotas
        self.clock = clock
    }

    /// Finds or opens the conversation of `callerId` and `userId` about `productId`; `created`
    /// says which.
    public func start(with userId: String, about productId: String?, by callerId: String) async throws -> (
        conversation: Conversation, created: Bool
    ) {
        guard userId != callerId else { throw DomainError.invalidField("userId", "must be another user, not yourself") }
        try quotas.charge(.startConversation, by: callerId)
        let userId = try Validation.id(userId, field: "userId", "does not name a user")
        guard try await store.existingUser(id: userId) != nil else {
            throw DomainError.invalidField("userId", "does not name a user")
        }
        if let productId {
            let productId = try Validation.id(productId, field: "productId", "does not name a product")
            guard let product = try await store.product(id: productId) else {
                throw DomainError.invalidField("productId", "does not name a product")
            }
            // A conversation is about something one of its two members sells.
            guard product.sellerId == callerId || product.sellerId == userId else {
                throw DomainError.invalidField("productId", "must be a product one of the two members sells")
            }
        }
        try await blocks.refuse(callerId, userId)
        return try await store.openConversation(
            between: callerId, and: userId, productId: productId, newId: clock.newId(), now: clock.now())
    }

    /// Marks the conversation read by `callerId` up to `messageId`.
    public func markRead(_ conversationId: String, upTo messageId: String, by callerId: String) async throws {
        let upTo = try Validation.id(messageId, field: "upTo", "does not name a message of this conversation")
        try quotas.charge(.edit, by: callerId)
        switch try await store.markRead(
            conversationId: conversationId, viewerId: callerId, upTo: upTo, now: clock.now())
        {
        case nil:
            throw DomainError.notFound("The conversation")
        case .unknownMessage:
            throw DomainError.invalidField("upTo", "does not name a message of this conversation")
        case .marked(let otherUserId):
            let read = ConversationRead(conversationId: conversationId, userId: callerId, upTo: upTo)
            let told = try await blocks.refusal(callerId, otherUserId) ? [callerId] : [callerId, otherUserId]
            await events.publish(.conversationRead(read), to: told)
        }
    }
}
