import BazaarAPI
import Dependencies
import Networking
import Session

/// The signed-in user's conversations, newest activity first, each with the other person, the
/// product, the last message and an unread count; and starting one with a seller about a product.
/// While watched, a new message or a read receipt reloads the list, so counts and order stay true.
public actor ConversationsLogicController: ConversationsLogic {
    private let network: AuthenticatedNetworkController
    private let connection: (any LiveEventSource)?
    private let pageSize: Int
    private let broadcast = StateBroadcast<ScreenState<ConversationListContent>>(.loading)
    private var list = PagedItems<Conversation>()
    private var started: Conversation?

    /// Makes the logic over the user's controller, following `connection` while watched.
    public init(network: AuthenticatedNetworkController, connection: (any LiveEventSource)? = nil, pageSize: Int = 20) {
        self.network = network
        self.connection = connection
        self.pageSize = pageSize
        broadcast.whileWatched { [weak self] in await self?.follow() }
    }

    /// The screen's states from now on.
    public func states() -> AsyncStream<ScreenState<ConversationListContent>> { broadcast.subscribe(keeping: self) }

    /// Loads, pages or starts a conversation, and publishes the result.
    @discardableResult
    public func send(_ action: ConversationsAction) async -> ScreenState<ConversationListContent> {
        switch action {
        case .load:
            return broadcast.publish(await fetch(cursor: nil))
        case .loadMore:
            guard let cursor = list.nextCursor else { return broadcast.publish(.presenting(content)) }
            return broadcast.publish(await fetch(cursor: cursor))
        case .start(let userID, let productID):
            do throws(NetworkError) {
                started = try await network.request(
                    BazaarEndpoints.startConversation(StartConversationRequest(userId: userID, productId: productID)))
                return broadcast.publish(.presenting(content))
            } catch {
                return broadcast.publish(.failed(ScreenError(error)))
            }
        }
    }

    private var content: ConversationListContent {
        ConversationListContent(conversations: list.items, hasMore: list.hasMore, started: started)
    }

    private func fetch(cursor: String?) async -> ScreenState<ConversationListContent> {
        do throws(NetworkError) {
            list.receive(
                try await network.request(BazaarEndpoints.conversations(cursor: cursor, limit: pageSize)), after: cursor
            )
            return .presenting(content)
        } catch {
            return .failed(ScreenError(error))
        }
    }

    private func follow() async {
        guard let connection else { return }
        for await event in await connection.subscribe() {
            switch event {
            case .connected, .event(.messageCreated), .event(.conversationRead):
                broadcast.publish(await fetch(cursor: nil))
            case .event, .disconnected:
                continue
            }
        }
    }
}
