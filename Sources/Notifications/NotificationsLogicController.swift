import BazaarAPI
import Dependencies
import Networking
import Session

/// The signed-in user's notifications: pages, marking read, and each one told in words (who wrote,
/// and the start of what they wrote). An actor: it keeps what it loaded so marking read updates the
/// list in place. While watched, a new notification reloads the list.
public actor NotificationsLogicController: NotificationsLogic {
    private let network: AuthenticatedNetworkController
    private let events: (any LiveEventSource)?
    private let pageSize: Int
    private let broadcast = StateBroadcast<ScreenState<NotificationListContent>>(.loading)
    private var list = PagedItems<BazaarAPI.Notification>()
    private var describer: NotificationDescriber

    /// Makes the logic over the user's controller, following `events` while watched.
    public init(network: AuthenticatedNetworkController, events: (any LiveEventSource)? = nil, pageSize: Int = 20) {
        self.network = network
        self.events = events
        self.pageSize = pageSize
        describer = NotificationDescriber(network: network)
        broadcast.whileWatched { [weak self] in await self?.follow() }
    }

    /// The screen's states from now on.
    public func states() -> AsyncStream<ScreenState<NotificationListContent>> { broadcast.subscribe(keeping: self) }

    /// Loads, pages or marks read, and publishes the result.
    @discardableResult
    public func send(_ action: NotificationsAction) async -> ScreenState<NotificationListContent> {
        switch action {
        case .load:
            return broadcast.publish(await fetch(cursor: nil))
        case .loadMore:
            guard let cursor = list.nextCursor else { return broadcast.publish(await present()) }
            return broadcast.publish(await fetch(cursor: cursor))
        case .markRead(let ids):
            return broadcast.publish(await mark(MarkNotificationsReadRequest(ids: ids)) { ids.contains($0.id) })
        case .markAllRead:
            return broadcast.publish(await mark(MarkNotificationsReadRequest(all: true)) { _ in true })
        }
    }

    private func follow() async {
        guard let events else { return }
        for await event in await events.subscribe() {
            switch event {
            case .connected, .event(.notificationCreated):
                broadcast.publish(await fetch(cursor: nil))
            case .event, .disconnected:
                continue
            }
        }
    }

    private func present() async -> ScreenState<NotificationListContent> {
        // A copy: an actor's property cannot be changed across an await; the lookups are a cache.
        var describer = self.describer
        var items: [NotificationItem] = []
        for notification in list.items { items.append(await describer.describe(notification)) }
        self.describer = describer
        return .presenting(NotificationListContent(items: items, hasMore: list.hasMore))
    }

    private func fetch(cursor: String?) async -> ScreenState<NotificationListContent> {
        do throws(NetworkError) {
            list.receive(
                try await network.request(BazaarEndpoints.notifications(cursor: cursor, limit: pageSize)), after: cursor
            )
            return await present()
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
            return await present()
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
