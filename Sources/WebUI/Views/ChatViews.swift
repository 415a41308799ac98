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

    /// `olderPages` is how many pages before the newest are shown; the link asks for one more.
    init(content: MessagesContent, me: String, olderPages: Int = 0, nav: NavigationView) {
        let conversation = content.conversation
        title = "Chat with \(conversation.otherUser.displayName)"
        heading = title + (conversation.product.map { " about \($0.title)" } ?? "")
        self.nav = nav
        id = conversation.id
        olderURL = content.hasOlder ? "/conversations/\(conversation.id)?older=\(olderPages + 1)" : nil
        messages = content.messages.map { message in
            Line(
                who: message.senderId == me ? "You" : conversation.otherUser.displayName, body: message.body,
                mine: message.senderId == me, time: WebFormats.time(message.createdAt), isoTime: WebFormats.iso(message.createdAt))
        }
        pending = content.pending.map { entry in
            switch entry.state {
            case .queued: Pending(body: entry.body, state: "queued", stateClass: "queued")
            case .sending: Pending(body: entry.body, state: "sending", stateClass: "sending")
            case .sent: Pending(body: entry.body, state: "sent", stateClass: "sent")
            case .failed(let reason): Pending(body: entry.body, state: "not delivered: \(reason)", stateClass: "failed")
            }
        }
    }
}
