import BazaarAPI
import Dependencies
import Session

/// The chat feature (seed 002's `ChatModule`): conversations, messages and background sending,
/// all through one durable outbox per signed-in user.
public struct ChatModule: ChatModuleProtocol {
    private let session: UserSession
    private let outbox: Outbox

    /// Makes the module for `session`'s user, sending through `outbox`.
    public init(session: UserSession, outbox: Outbox) {
        self.session = session
        self.outbox = outbox
    }

    /// The conversations list.
    public func conversationsScreen() -> ConversationsScreen {
        ConversationsScreen(title: "Conversations", logic: ConversationsLogicController(network: session.network))
    }

    /// Chatting with `user` about `product`.
    public func messagesScreen(user: User, product: Product?) -> MessagesScreen {
        MessagesScreen(
            title: user.displayName,
            logic: MessagesLogicController(
                network: session.network, outbox: outbox, target: .user(id: user.id, productID: product?.id)))
    }

    /// A conversation known by id.
    public func messagesScreen(conversationID: String) -> MessagesScreen {
        MessagesScreen(
            title: "Messages",
            logic: MessagesLogicController(network: session.network, outbox: outbox, target: .conversation(id: conversationID)))
    }

    /// A background sender to `receiver` about `product`.
    public func messageSender(to receiver: User, about product: Product?) -> any ChatMessageSender {
        OutboxMessageSender(outbox: outbox, recipient: .user(id: receiver.id, productID: product?.id))
    }
}
