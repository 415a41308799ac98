import BazaarAPI
import Foundation
import Networking

/// Where a message in the outbox is going: a known conversation, or a person (and product) whose
/// conversation is found or started at delivery time, so a first message can be queued offline.
public enum OutboxRecipient: Sendable, Equatable, Hashable {
    /// An existing conversation.
    case conversation(id: String)
    /// The conversation with a user about a product (or about nothing).
    case user(id: String, productID: String?)
}

/// Where a queued message is on its way to the server.
public enum OutboxState: Sendable, Equatable, Hashable {
    /// Written to disk, waiting its turn (or waiting for the server to come back).
    case queued
    /// Being sent now.
    case sending
    /// Delivered: the server's message id.
    case sent(messageID: String)
    /// Refused for good (a 4xx such as 404 or 422), with the server's reason.
    case failed(reason: String)

    /// Whether the message will not change state any more.
    public var isFinal: Bool {
        switch self {
        case .sent, .failed: true
        case .queued, .sending: false
        }
    }
}

/// A message in the durable outbox.
public struct OutboxEntry: Sendable, Equatable, Hashable, Identifiable {
    /// The local id (also the idempotency key every attempt carries).
    public var id: String
    /// Where it goes.
    public var recipient: OutboxRecipient
    /// The text.
    public var body: String
    /// Where it is on its way.
    public var state: OutboxState
    /// How many delivery attempts were made.
    public var attempts: Int
    /// When it was queued.
    public var createdAt: Date
    /// How many photos go with it (their bytes stay in the outbox file until it is delivered).
    public var photoCount: Int
    /// The server's message, on the update that reports the delivery (``OutboxState/sent(messageID:)``),
    /// so a screen can show it without asking the server again; `nil` on entries read from disk.
    public var message: Message?

    /// Makes an entry.
    public init(
        id: String, recipient: OutboxRecipient, body: String, state: OutboxState, attempts: Int, createdAt: Date,
        photoCount: Int = 0, message: Message? = nil
    ) {
        self.id = id
        self.recipient = recipient
        self.body = body
        self.state = state
        self.attempts = attempts
        self.createdAt = createdAt
        self.photoCount = photoCount
        self.message = message
    }
}

/// Sends messages about one conversation in the background (seed 002's `ChatMessageSender`).
///
/// A message is written to the durable outbox first and delivered exactly once, in order, whenever
/// the server can be reached.
public protocol ChatMessageSender: Sendable {
    /// Queues `body` and `photos` durably and returns the entry at once (state `queued`).
    ///
    /// - Throws: ``MessageDraftError`` for a message the server would refuse (nothing is queued),
    ///   or the outbox file's error.
    func sendNewMessage(with body: String, photos: [PhotoToSend]) async throws -> OutboxEntry
    /// Waits until the entry is delivered or refused, and returns its final form.
    func delivery(of entryID: String) async -> OutboxEntry
}

extension ChatMessageSender {
    /// Queues a text message durably and returns the entry at once (state `queued`).
    public func sendNewMessage(with body: String) async throws -> OutboxEntry {
        try await sendNewMessage(with: body, photos: [])
    }

    /// The seed's shape: `completion` gets the new message's id once delivered, or `nil` if refused.
    public func sendNewMessage(with body: String, completion: @escaping @Sendable (_ messageId: String?) -> Void) {
        Task {
            guard let entry = try? await sendNewMessage(with: body) else {
                completion(nil)
                return
            }
            if case .sent(let messageID) = await delivery(of: entry.id).state {
                completion(messageID)
            } else {
                completion(nil)
            }
        }
    }
}

/// What the conversations screen shows.
public struct ConversationListContent: Sendable, Equatable {
    /// The conversations, newest activity first, each with its last message and unread count.
    public var conversations: [Conversation]
    /// Whether a ``ConversationsAction/loadMore`` can add a page.
    public var hasMore: Bool
    /// The conversation a ``ConversationsAction/start(withUser:aboutProduct:)`` found or started.
    public var started: Conversation?

    /// Makes content.
    public init(conversations: [Conversation], hasMore: Bool, started: Conversation? = nil) {
        self.conversations = conversations
        self.hasMore = hasMore
        self.started = started
    }

    /// How many unread messages the loaded conversations hold.
    public var unreadCount: Int { conversations.reduce(0) { $0 + $1.unreadCount } }
}

/// What the person can do on the conversations screen.
public enum ConversationsAction: Sendable, Equatable {
    /// Loads the newest page of conversations.
    case load
    /// Adds the next page.
    case loadMore
    /// Starts (or finds) the conversation with a user about a product.
    case start(withUser: String, aboutProduct: String?)
}

/// The conversations screen's logic: while watched, a new message reorders the list and counts as
/// unread at once.
public protocol ConversationsLogic: LogicController
where Action == ConversationsAction, State == ScreenState<ConversationListContent> {}

/// What the messages screen shows.
public struct MessagesContent: Sendable, Equatable {
    /// The conversation.
    public var conversation: Conversation
    /// The messages loaded so far, oldest first, each once (fetched and live ones de-duplicated).
    public var messages: [Message]
    /// Messages still in the outbox for this conversation, oldest first (queued, sending or failed).
    public var pending: [OutboxEntry]
    /// Whether a ``MessagesAction/loadOlder`` can add earlier messages.
    public var hasOlder: Bool

    /// Makes content.
    public init(conversation: Conversation, messages: [Message], pending: [OutboxEntry], hasOlder: Bool) {
        self.conversation = conversation
        self.messages = messages
        self.pending = pending
        self.hasOlder = hasOlder
    }
}

/// What the person can do on the messages screen.
public enum MessagesAction: Sendable, Equatable {
    /// Opens the conversation (starting it if needed) and loads its newest messages.
    case load
    /// Adds earlier messages.
    case loadOlder
    /// Queues a message in the outbox (delivered in the background) and shows it as pending.
    case send(String)
    /// Queues up to four photos, with text or without, in the outbox: the photos are uploaded
    /// just before the message is delivered, so this works offline too.
    case sendPhotos([PhotoToSend], text: String)
    /// Tells the server everything shown so far has been read.
    case markRead
    /// Fetches what arrived since the last load and folds in delivered outbox messages.
    case refresh
}

/// The messages screen's logic: history, sending through the outbox, read receipts. While its
/// states are watched (the screen is open), it folds in live messages (each once), marks incoming
/// ones read, catches up after every reconnection, and moves outbox entries from queued to sent.
public protocol MessagesLogic: LogicController where Action == MessagesAction, State == ScreenState<MessagesContent> {}

/// The conversations screen as a module hands it out.
public typealias ConversationsScreen = Screen<any ConversationsLogic>

/// The messages screen as a module hands it out.
public typealias MessagesScreen = Screen<any MessagesLogic>

/// The chat feature's public face (seed 002's `ChatModuleProtocol`).
public protocol ChatModuleProtocol: Sendable {
    /// A new screen listing the signed-in user's conversations.
    func conversationsScreen() -> ConversationsScreen
    /// A new screen to chat with `user` about `product` (or about nothing).
    func messagesScreen(user: User, product: Product?) -> MessagesScreen
    /// A new screen for a conversation already known by id.
    func messagesScreen(conversationID: String) -> MessagesScreen
    /// An object that sends messages to `receiver` about `product` in the background.
    func messageSender(to receiver: User, about product: Product?) -> any ChatMessageSender
    /// An object that sends messages into a conversation known by id, in the background (works
    /// offline: nothing is fetched before the message is queued).
    func messageSender(toConversation conversationID: String) -> any ChatMessageSender
    /// One size of a photo sent in a conversation, fetched with the signed-in session (only the
    /// conversation's members see it: to anyone else it is `404`, as if it did not exist).
    func photo(_ attachmentID: String, inConversation conversationID: String, size: PhotoSize)
        async throws(NetworkError)
        -> Data
}
