import BazaarAPI
import Dependencies
import Foundation

/// The notifications page and its live list.
struct NotificationListView: Sendable {
    struct Item: Sendable {
        var id: String
        var headline: String
        var read: Bool
        var link: String?
        var time: String
        var isoTime: String
    }

    var title = "Notifications"
    var nav: NavigationView
    var items: [Item]
    var hasUnread: Bool

    init(content: NotificationListContent, nav: NavigationView) {
        self.nav = nav
        items = content.items.map { item in
            Item(
                id: item.id, headline: item.headline, read: item.notification.read,
                link: item.notification.conversationId.map { "/conversations/\($0)" },
                time: WebFormats.time(item.notification.createdAt), isoTime: WebFormats.iso(item.notification.createdAt)
            )
        }
        hasUnread = content.unreadCount > 0
    }
}

/// The profile page.
struct ProfileView: Sendable {
    var title = "Your profile"
    var nav: NavigationView
    var error: String?
    var displayName: String
    var username: String
    var photoURL: String?
    var id: String
    /// The rating as five stars (`nil` without reviews) and in words.
    var stars: String?
    var ratingSummary: String

    /// The view of `user`, with their photo's link resolved against `server`.
    init(user: User, error: String? = nil, server: URL, nav: NavigationView) {
        self.nav = nav
        self.error = error
        id = user.id
        stars = RatingText.roundedStars(of: user)
        ratingSummary = RatingText.summary(of: user)
        displayName = user.displayName
        username = user.username
        photoURL = user.photoURL.map { WebFormats.absolute(PhotoSize.thumb.url($0), on: server) }
    }
}
