import BazaarAPI
import BazaarStorage
import Foundation

/// The rule of sending a message, written once for every storage engine.
///
/// A send is valid when its body is 1-4000 characters (0-4000 when it carries photos: up to
/// ``Message/attachmentLimit`` the sender uploaded to the conversation and has not sent, see
/// ``AttachmentService``) and its `Idempotency-Key` 1-255 visible ASCII characters; it costs one of the sender's ``QuotaAction/sendMessage`` quota; it is
/// allowed only into a conversation the sender is a member of (404 otherwise, as for one that
/// does not exist), and not while either member has blocked the other (403 `blocked`, see
/// ``BlockRule``). It stores, in one transaction, the key's claim, the message, a notification
/// for the recipient and the two live events (the message to both members, the notification
/// to the recipient). The same key again with the same body and conversation answers the first
/// message and costs no quota; with anything else it is a conflict.
public struct MessageService: Sendable {
    let store: any BazaarStore
    let quotas: QuotaLimiter
    let attachments: AttachmentService
    let clock: DomainClock

    /// A service writing to `store`, charging `quotas`, checking photos with `attachments`,
    /// timing and naming with `clock`.
    package init(store: any BazaarStore, quotas: QuotaLimiter, attachments: AttachmentService, clock: DomainClock) {
        self.store = store
        self.quotas = quotas
        self.attachments = attachments
        self.clock = clock
    }

    /// What a send answered.
    public enum Sent: Sendable, Equatable {
        /// A new message.
        case created(Message)
        /// The message the same key made before.
        case replayed(Message)
    }

    /// Sends `body` with the photos `attachmentIds` from `senderId` into the conversation, at
    /// most once per idempotency key.
    ///
    /// - Throws: ``DomainError`` for a missing or malformed key, a body out of bounds, photos that
    ///   are not the sender's to send, the quota spent, a conversation that is not the sender's,
    ///   or a key reused for another message.
    public func send(
        _ body: String, attachmentIds: [String] = [], idempotencyKey: String?, to conversationId: String,
        from senderId: String
    ) async throws -> Sent {
        let key = try Validation.idempotencyKey(idempotencyKey)
        if attachmentIds.isEmpty || !body.isEmpty { try Validation.messageBody(body) }
        try quotas.charge(.sendMessage, by: senderId)
        guard let recipientId = try await store.conversationMembers(id: conversationId)?.other(than: senderId) else {
            throw DomainError.notFound("The conversation")
        }
        let photos: [Photo]
        do {
            photos = try await attachments.sendable(attachmentIds, in: conversationId, by: senderId)
        } catch {
            // Photos already sent with this very key: the answer is the message they were sent with.
            if let replayed = try await replay(body, attachmentIds, conversationId, senderId) { return replayed }
            throw error
        }
        let now = clock.now()
        let message = Message(
            id: clock.newId(), conversationId: conversationId, senderId: senderId, body: body, createdAt: now,
            attachments: photos)
        let notification = BazaarAPI.Notification(
            id: clock.newId(), type: NotificationType.newMessage, read: false, createdAt: now,
            conversationId: conversationId, messageId: message.id)
        var writes: [StoredWrite] = [
            // Decided in the send's own transaction: no read before it, and no race with a block.
            .refuseIfBlocked(senderId, recipientId),
            .claim(IdempotencyClaim(owner: senderId, key: key, resultId: message.id)),
        ]
        if !photos.isEmpty {
            writes.append(
                .attachPhotos(
                    ids: attachmentIds, messageId: message.id, uploaderId: senderId, conversationId: conversationId))
        }
        writes += [
            .appendMessage(message),
            .notify(userId: recipientId, notification),
            .publish(.messageCreated(message), to: [recipientId, senderId]),
            .publish(.notificationCreated(notification), to: [recipientId]),
        ]
        switch try await store.apply(WritePlan(writes), now: now) {
        case .applied:
            return .created(message)
        case .claimTaken(let previousId):
            guard let previous = try await store.message(id: previousId),
                Self.isSame(previous, body, attachmentIds, conversationId)
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
            // A photo was sent (or went) since it was checked: by this key's first send, or another.
            quotas.refund(.sendMessage, by: senderId)
            if let replayed = try await replay(body, attachmentIds, conversationId, senderId) { return replayed }
            throw AttachmentService.notSendable
        }
    }

    /// The message these photos were sent with, when it is this same send made before (its
    /// answer lost, say): the same body and photos in the same conversation. The quota charged for
    /// this attempt is given back.
    private func replay(
        _ body: String, _ attachmentIds: [String], _ conversationId: String, _ senderId: String
    ) async throws -> Sent? {
        guard let first = attachmentIds.first,
            let messageId = try await store.attachments(ids: [first]).first?.messageId,
            let previous = try await store.message(id: messageId), previous.senderId == senderId,
            Self.isSame(previous, body, attachmentIds, conversationId)
        else { return nil }
        quotas.refund(.sendMessage, by: senderId)
        return .replayed(previous)
    }

    /// Whether `message` is what a send of `body` with `attachmentIds` into the conversation makes.
    private static func isSame(_ message: Message, _ body: String, _ attachmentIds: [String], _ conversationId: String)
        -> Bool
    {
        message.conversationId == conversationId && message.body == body
            && message.attachments.map(\.id) == attachmentIds
    }
}
