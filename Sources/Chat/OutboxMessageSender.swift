import Dependencies

/// Sends messages to one person about one product through the durable outbox (seed 002's
/// `ChatMessageSender`): queued on disk at once, delivered in the background exactly once.
public struct OutboxMessageSender: ChatMessageSender {
    private let outbox: Outbox
    private let recipient: OutboxRecipient

    /// Makes a sender for `recipient` over `outbox`.
    public init(outbox: Outbox, recipient: OutboxRecipient) {
        self.outbox = outbox
        self.recipient = recipient
    }

    /// Queues `body` and `photos` durably; returns the queued entry.
    public func sendNewMessage(with body: String, photos: [PhotoToSend]) async throws -> OutboxEntry {
        try await outbox.enqueue(body, photos: photos, to: recipient)
    }

    /// Waits for the entry's delivery (or refusal).
    public func delivery(of entryID: String) async -> OutboxEntry {
        await outbox.delivery(of: entryID)
    }
}
