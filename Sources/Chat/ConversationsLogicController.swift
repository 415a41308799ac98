import BazaarAPI
import Dependencies
import Networking
import Session

/// The signed-in user's conversations, newest activity first, each with the other person, the
/// product, the last message and an unread count; and starting one with a seller about a product.
public actor ConversationsLogicController: ConversationsLogic {
    private let network: AuthenticatedNetworkController
    private let pageSize: Int
    private var list = PagedItems<Conversation>()

    /// Makes the logic over the user's controller.
    public init(network: AuthenticatedNetworkController, pageSize: Int = 20) {
        self.network = network
        self.pageSize = pageSize
    }

    /// Loads the newest page.
    public func load() async -> ScreenState<ConversationListContent> {
        await fetch(cursor: nil)
    }

    /// Adds the next page; with none left, the list stays as it is.
    public func loadMore() async -> ScreenState<ConversationListContent> {
        guard let cursor = list.nextCursor else { return .presenting(content) }
        return await fetch(cursor: cursor)
    }

    /// Starts the conversation with `userID` about `productID`, or finds the existing one.
    public func start(withUser userID: String, aboutProduct productID: String?) async -> ScreenState<Conversation> {
        do throws(NetworkError) {
            return .presenting(
                try await network.request(
                    BazaarEndpoints.startConversation(StartConversationRequest(userId: userID, productId: productID))))
        } catch {
            return .failed(ScreenError(error))
        }
    }

    private var content: ConversationListContent {
        ConversationListContent(conversations: list.items, hasMore: list.hasMore)
    }

    private func fetch(cursor: String?) async -> ScreenState<ConversationListContent> {
        do throws(NetworkError) {
            list.receive(try await network.request(BazaarEndpoints.conversations(cursor: cursor, limit: pageSize)), after: cursor)
            return .presenting(content)
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
