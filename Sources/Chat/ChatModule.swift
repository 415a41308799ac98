import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// The chat feature (seed 002's `ChatModule`): conversations, messages and background sending,
/// all through one durable outbox per signed-in user.
public struct ChatModule: ChatModuleProtocol {
    private let session: UserSession
    private let outbox: Outbox
    private let connection: (any LiveEventSource)?

    /// Makes the module for `session`'s user, sending through `outbox` and, when given, receiving
    /// live messages on `connection` (one socket shared by every screen).
    public init(session: UserSession, outbox: Outbox, connection: (any LiveEventSource)? = nil) {
        self.session = session
        self.outbox = outbox
        self.connection = connection
    }

    /// The conversations list.
    public func conversationsScreen() -> ConversationsScreen {
        ConversationsScreen(
            title: "Conversations",
            logic: ConversationsLogicController(network: session.network, connection: connection))
    }

    /// Chatting with `user` about `product`.
    public func messagesScreen(user: User, product: Product?) -> MessagesScreen {
        MessagesScreen(
            title: user.displayName,
            logic: MessagesLogicController(
                network: session.network, outbox: outbox, connection: connection,
                target: .user(id: user.id, productID: product?.id)))
    }

    /// A conversation known by id.
    public func messagesScreen(conversationID: String) -> MessagesScreen {
        MessagesScreen(
            title: "Messages",
            logic: MessagesLogicController(
                network: session.network, outbox: outbox, connection: connection,
                target: .conversation(id: conversationID)))
    }

    /// A background sender to `receiver` about `product`.
    public func messageSender(to receiver: User, about product: Product?) -> any ChatMessageSender {
        OutboxMessageSender(outbox: outbox, recipient: .user(id: receiver.id, productID: product?.id))
    }

    /// A background sender into a conversation known by id.
    public func messageSender(toConversation conversationID: String) -> any ChatMessageSender {
        OutboxMessageSender(outbox: outbox, recipient: .conversation(id: conversationID))
    }

    /// `GET /v1/conversations/{id}/attachments/{attachment}?size=` with the session.
    public func photo(_ attachmentID: String, inConversation conversationID: String, size: PhotoSize)
        async throws(NetworkError) -> Data
    {
        try await session.network.request(
            BazaarEndpoints.attachmentPhoto(conversationID: conversationID, attachmentId: attachmentID, size: size))
    }
}
