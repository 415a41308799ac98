import BazaarAPI
import Dependencies

extension MessagesContent {
    /// Whether `message`, arriving as a live event or new in a refreshed page, is the viewer's own
    /// message that a queued or sending entry shown here still stands for: same text, same number
    /// of photos.
    ///
    /// Such a message is held back and folded in the same state change that takes the last entry
    /// with its text out of ``pending`` (by then the outbox has folded its own message, the same id,
    /// so a held one that is not it, from the viewer's other device, shows beside it). Folded now,
    /// the screen would show it twice (queued and delivered) until the outbox records the server's
    /// answer, and the outbox always reports that answer, replays included. A failed entry holds
    /// nothing: the server refused it, so a message with the same text came from somewhere else.
    func awaitsOutboxDelivery(_ message: Message) -> Bool {
        message.senderId != conversation.otherUser.id
            && pending.contains { entry in
                !entry.state.isFinal && entry.body == message.body && entry.photoCount == message.attachments.count
            }
    }
}
