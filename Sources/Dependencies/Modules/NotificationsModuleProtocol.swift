import BazaarAPI
import Foundation

/// A notification with what a person needs to read it: who it is from and what they said.
public struct NotificationItem: Sendable, Equatable, Identifiable {
    /// The notification as the server keeps it.
    public var notification: BazaarAPI.Notification
    /// The other person in the conversation it is about, when known.
    public var from: User?
    /// The start of the message it is about, when known.
    public var excerpt: String?

    /// Makes an item.
    public init(notification: BazaarAPI.Notification, from: User? = nil, excerpt: String? = nil) {
        self.notification = notification
        self.from = from
        self.excerpt = excerpt
    }

    /// The notification's id.
    public var id: String { notification.id }

    /// One line in words: "Ada Lovelace sent you a message: “Is it still…”", "Ada Lovelace made
    /// you an offer: Offered 120.00 EUR". A type this kit does not know reads as its name.
    public var headline: String {
        let who = from?.displayName ?? "Someone"
        switch notification.type {
        case NotificationType.newMessage:
            return excerpt.map { "\(who) sent you a message: “\($0)”" } ?? "\(who) sent you a message"
        case NotificationType.offerReceived:
            return excerpt.map { "\(who) made you an offer: \($0)" } ?? "\(who) made you an offer"
        case NotificationType.offerAccepted:
            return "\(who) accepted your offer" + (excerpt.map { ": \($0)" } ?? "")
        case NotificationType.offerDeclined:
            return "\(who) declined your offer" + (excerpt.map { ": \($0)" } ?? "")
        case NotificationType.favouritePriceDropped:
            return "A product you saved costs less now"
        case NotificationType.favouriteSold:
            return "A product you saved was sold"
        case NotificationType.reviewReceived:
            return "You were reviewed after a sale"
        case NotificationType.reportResolved:
            return "A moderator acted on your report"
        default:
            return notification.type.replacingOccurrences(of: "_", with: " ").capitalized
        }
    }
}

/// What the notifications screen shows.
public struct NotificationListContent: Sendable, Equatable {
    /// The notifications loaded so far, newest first.
    public var items: [NotificationItem]
    /// Whether a ``NotificationsAction/loadMore`` can add a page.
    public var hasMore: Bool

    /// Makes content.
    public init(items: [NotificationItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }

    /// The notifications themselves.
    public var notifications: [BazaarAPI.Notification] { items.map(\.notification) }

    /// How many of the loaded notifications are unread.
    public var unreadCount: Int { items.count { !$0.notification.read } }
}

/// What the person can do on the notifications screen.
public enum NotificationsAction: Sendable, Equatable {
    /// Loads the newest page.
    case load
    /// Adds the next page.
    case loadMore
    /// Marks some notifications read.
    case markRead(ids: [String])
    /// Marks every notification read.
    case markAllRead
}

/// The notifications screen's logic (seed 004's `NotiService.getNoti`, as a logic controller).
public protocol NotificationsLogic: LogicController
where Action == NotificationsAction, State == ScreenState<NotificationListContent> {}

/// The notifications screen as a module hands it out.
public typealias NotificationsScreen = Screen<any NotificationsLogic>

/// The notifications feature's public face; the app resolves it from ``Dependencies``.
public protocol NotificationsModuleProtocol: Sendable {
    /// A new notifications screen for the signed-in user.
    func notificationsScreen() -> NotificationsScreen
}
