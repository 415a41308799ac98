import BazaarAPI
import Dependencies
import Networking
import Session

/// The signed-in user's notifications: pages, and marking read. An actor: it keeps what it loaded
/// so marking read updates the list in place.
public actor NotificationsLogicController: NotificationsLogic {
    private let network: AuthenticatedNetworkController
    private let pageSize: Int
    private var list = PagedItems<BazaarAPI.Notification>()

    /// Makes the logic over the user's controller.
    public init(network: AuthenticatedNetworkController, pageSize: Int = 20) {
        self.network = network
        self.pageSize = pageSize
    }

    /// Loads the newest page.
    public func load() async -> ScreenState<NotificationListContent> {
        await fetch(cursor: nil)
    }

    /// Adds the next page; with none left, the list stays as it is.
    public func loadMore() async -> ScreenState<NotificationListContent> {
        guard let cursor = list.nextCursor else { return .presenting(content) }
        return await fetch(cursor: cursor)
    }

    /// Marks `ids` read on the server, then in the list.
    public func markRead(ids: [String]) async -> ScreenState<NotificationListContent> {
        await mark(MarkNotificationsReadRequest(ids: ids)) { ids.contains($0.id) }
    }

    /// Marks everything read on the server, then in the list.
    public func markAllRead() async -> ScreenState<NotificationListContent> {
        await mark(MarkNotificationsReadRequest(all: true)) { _ in true }
    }

    private var content: NotificationListContent {
        NotificationListContent(notifications: list.items, hasMore: list.hasMore)
    }

    private func fetch(cursor: String?) async -> ScreenState<NotificationListContent> {
        do throws(NetworkError) {
            list.receive(try await network.request(BazaarEndpoints.notifications(cursor: cursor, limit: pageSize)), after: cursor)
            return .presenting(content)
        } catch {
            return .failed(ScreenError(error))
        }
    }

    private func mark(_ request: MarkNotificationsReadRequest, where matches: (BazaarAPI.Notification) -> Bool) async
        -> ScreenState<NotificationListContent>
    {
        do throws(NetworkError) {
            _ = try await network.request(BazaarEndpoints.markNotificationsRead(request))
            list.update(where: matches) { $0.read = true }
            return .presenting(content)
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
