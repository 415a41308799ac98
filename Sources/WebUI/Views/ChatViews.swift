import BazaarAPI
import Dependencies
import Foundation

/// The conversations page and its live list.
struct ConversationListView: Sendable {
    struct Item: Sendable {
        var id: String
        var with: String
        var about: String?
        var lastMessage: String?
        var unread: Int?
    }

    var title = "Messages"
    var nav: NavigationView
    var conversations: [Item]

    init(content: ConversationListContent, nav: NavigationView) {
        self.nav = nav
        conversations = content.conversations.map { conversation in
            Item(
                id: conversation.id, with: conversation.otherUser.displayName, about: conversation.product?.title,
                lastMessage: conversation.lastMessage.map { String($0.body.prefix(80)) },
                unread: conversation.unreadCount > 0 ? conversation.unreadCount : nil)
        }
    }
}

/// One conversation's page and its live message list.
struct ConversationView: Sendable {
    struct Line: Sendable {
        var who: String
        var body: String
        var mine: Bool
        var time: String
        var isoTime: String
    }

    struct Pending: Sendable {
        var body: String
        var state: String
        var stateClass: String
    }

    var title: String
    var nav: NavigationView
    var id: String
    var heading: String
    var olderURL: String?
    var messages: [Line]
    var pending: [Pending]

    /// The CSS class of a status: how this renderer styles it (the words are the state's).
    static func styleClass(_ status: MessageLine.Status) -> String {
        switch status {
        case .queued: "queued"
        case .sending: "sending"
        case .sent: "sent"
        case .failed: "failed"
        }
    }

    /// `olderPages` is how many pages before the newest are shown; the link asks for one more.
    init(content: MessagesContent, me: String, olderPages: Int = 0, nav: NavigationView) {
        let conversation = content.conversation
        title = "Chat with \(conversation.otherUser.displayName)"
        heading = title + (conversation.product.map { " about \($0.title)" } ?? "")
        self.nav = nav
        id = conversation.id
        olderURL = content.hasOlder ? "/conversations/\(conversation.id)?older=\(olderPages + 1)" : nil
        let lines = content.lines(viewer: me)
        messages = lines.filter { $0.status == nil }.map { line in
            Line(
                who: line.author, body: line.body, mine: line.isMine, time: WebFormats.time(line.time),
                isoTime: WebFormats.iso(line.time))
        }
        pending = lines.compactMap { line in
            line.status.map { Pending(body: line.body, state: $0.text, stateClass: Self.styleClass($0)) }
        }
    }
}
