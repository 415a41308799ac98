import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// Draws the notification list, unread ones marked; no logic.
struct NotificationsRenderer {
    /// The lines for `content` at `width` columns.
    func lines(for content: NotificationListContent, width: Int?) -> [ConsoleText] {
        guard !content.notifications.isEmpty else { return ["No notifications.".consoleText(.muted)] }
        let table = Table(
            columns: [.init(""), .init("WHEN"), .init("WHAT", flexible: true), .init("ID")],
            rows: content.items.map { item in
                [
                    item.notification.read ? " ".consoleText() : "●".consoleText(.highlight),
                    Formats.date(item.notification.createdAt).consoleText(.muted),
                    item.headline.consoleText(),
                    KnownIDs.short(item.id).consoleText(.muted),
                ]
            })
        let unread = content.unreadCount
        return table.render(width: width) + ["\(unread) unread".consoleText(unread > 0 ? .highlight : .muted)]
    }
}
