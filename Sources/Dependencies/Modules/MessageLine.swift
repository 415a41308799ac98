import BazaarAPI
import Foundation

/// One line of a conversation as a screen shows it: who wrote it (as the reader calls them),
/// what, when, and, for a message still in the outbox, where it is on its way. Both renderers draw
/// these lines; neither decides what they say.
public struct MessageLine: Sendable, Equatable, Identifiable {
    /// Where a message from the outbox is on its way.
    public enum Status: Sendable, Equatable {
        /// Waiting its turn, or for the server to come back.
        case queued
        /// Being sent now.
        case sending
        /// On the server.
        case sent
        /// Refused for good, with the server's reason.
        case failed(reason: String)

        /// The words for it: "queued", "sending", "sent", "not delivered: …".
        public var text: String {
            switch self {
            case .queued: "queued"
            case .sending: "sending"
            case .sent: "sent"
            case .failed(let reason): "not delivered: \(reason)"
            }
        }

        init(_ state: OutboxState) {
            switch state {
            case .queued: self = .queued
            case .sending: self = .sending
            case .sent: self = .sent
            case .failed(let reason): self = .failed(reason: reason)
            }
        }
    }

    /// The message's id, or the outbox entry's while it is one.
    public var id: String
    /// "You" for the reader's own messages, else the other person's display name.
    public var author: String
    /// Whether the reader wrote it.
    public var isMine: Bool
    /// The text.
    public var body: String
    /// When it was sent (or queued, for an outbox entry).
    public var time: Date
    /// For a message still in the outbox, its way there; `nil` for one in the history.
    public var status: Status?
    /// For an offer's line ("Offered 120.00 EUR", "Accepted the offer of …"), the offer it is
    /// about; a renderer draws such lines apart from what people wrote.
    public var offerID: String?
    /// Whether a moderator removed it (its body says so); nothing is left to report.
    public var removed = false
    /// The photos it carries, in the sender's order (none while it is still in the outbox).
    public var photos: [Photo] = []
    /// How many photos it carries: ``photos``' count, or, for a message still in the outbox, how
    /// many wait there with it.
    public var photoCount = 0
    /// The conversation it belongs to, when known (a message queued for a person has none yet).
    public var conversationID: String?

    /// What to show for a message whose text is empty because it is only photos: "2 photos".
    public var photoSummary: String? {
        photoCount == 0 ? nil : photoCount == 1 ? "1 photo" : "\(photoCount) photos"
    }
}

extension MessageLine {
    /// A message of the history, as `viewerID` reads it in `conversation`.
    public init(_ message: Message, in conversation: Conversation, viewer viewerID: String) {
        let mine = message.senderId == viewerID
        self.init(
            id: message.id, author: mine ? "You" : conversation.otherUser.displayName, isMine: mine, body: message.body,
            time: message.createdAt, status: nil, offerID: message.kind == .offer ? message.offerId : nil,
            removed: message.removed, photos: message.attachments, photoCount: message.attachments.count,
            conversationID: message.conversationId)
    }

    /// One of the reader's own messages still in the outbox.
    public init(_ entry: OutboxEntry) {
        var conversationID: String?
        if case .conversation(let id) = entry.recipient { conversationID = id }
        self.init(
            id: entry.id, author: "You", isMine: true, body: entry.body, time: entry.createdAt,
            status: Status(entry.state), photoCount: entry.photoCount, conversationID: conversationID)
    }
}

extension MessagesContent {
    /// Every line the screen shows, oldest first, for the reader `viewerID`: the history, then
    /// what is still in the outbox.
    public func lines(viewer viewerID: String) -> [MessageLine] {
        messages.map { MessageLine($0, in: conversation, viewer: viewerID) } + pending.map(MessageLine.init)
    }
}
