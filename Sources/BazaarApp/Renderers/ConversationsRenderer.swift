import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// Draws the conversation list: who, about what, the last message and how many are unread; no logic.
struct ConversationsRenderer {
    /// The lines for `content` at `width` columns.
    func lines(for content: ConversationListContent, width: Int?) -> [ConsoleText] {
        guard !content.conversations.isEmpty else {
            return [
                "No conversations yet. Start one: bazaar chat start USER_ID --product PRODUCT_ID".consoleText(.muted)
            ]
        }
        let table = Table(
            columns: [
                .init("ID"), .init("WITH"), .init("ABOUT", flexible: true), .init("LAST MESSAGE", flexible: true),
                .init("UNREAD", alignRight: true),
            ],
            rows: content.conversations.map { conversation in
                [
                    KnownIDs.short(conversation.id).consoleText(.muted),
                    conversation.otherUser.displayName.consoleText()
                        + (conversation.blocked ? " (blocked)".consoleText(.warning) : ""),
                    (conversation.product?.title ?? "—").consoleText(),
                    (conversation.lastMessage?.body ?? "").replacingOccurrences(of: "\n", with: " ").consoleText(),
                    conversation.unreadCount > 0
                        ? "\(conversation.unreadCount)".consoleText(.highlight) : "0".consoleText(.muted),
                ]
            })
        return table.render(width: width)
    }
}
