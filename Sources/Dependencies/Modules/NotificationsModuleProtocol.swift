import BazaarAPI

/// What the notifications screen shows.
public struct NotificationListContent: Sendable, Equatable {
    /// The notifications loaded so far, newest first.
    public var notifications: [BazaarAPI.Notification]
    /// Whether ``NotificationsLogic/loadMore()`` can add a page.
    public var hasMore: Bool

    /// Makes content.
    public init(notifications: [BazaarAPI.Notification], hasMore: Bool) {
        self.notifications = notifications
        self.hasMore = hasMore
    }

    /// How many of the loaded notifications are unread.
    public var unreadCount: Int { notifications.count { !$0.read } }
}

/// The notifications screen's logic (seed 004's `NotiService.getNoti`, as a logic controller).
public protocol NotificationsLogic: Sendable {
    /// Loads the newest page.
    func load() async -> ScreenState<NotificationListContent>
    /// Adds the next page.
    func loadMore() async -> ScreenState<NotificationListContent>
    /// Marks some notifications read.
    func markRead(ids: [String]) async -> ScreenState<NotificationListContent>
    /// Marks every notification read.
    func markAllRead() async -> ScreenState<NotificationListContent>
}

extension NotificationsLogic {
    /// The seed's form of ``load()``.
    @discardableResult
    public func load(then handler: @escaping StateHandler<ScreenState<NotificationListContent>>) -> Task<Void, Never> {
        Task { handler(await load()) }
    }

    /// The seed's form of ``markAllRead()``.
    @discardableResult
    public func markAllRead(then handler: @escaping StateHandler<ScreenState<NotificationListContent>>) -> Task<Void, Never> {
        Task { handler(await markAllRead()) }
    }
}

/// The notifications screen as a module hands it out.
public typealias NotificationsScreen = Screen<any NotificationsLogic>

/// The notifications feature's public face; the app resolves it from ``Dependencies``.
public protocol NotificationsModuleProtocol: Sendable {
    /// A new notifications screen for the signed-in user.
    func notificationsScreen() -> NotificationsScreen
}
