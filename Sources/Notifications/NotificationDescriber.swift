import BazaarAPI
import Dependencies
import Networking
import Session

/// Tells a notification in words: the other person in its conversation and the start of its
/// message, looked up once per conversation and remembered (a notification list names few).
/// A lookup that fails leaves the item without names; the list still shows.
struct NotificationDescriber {
    private let network: AuthenticatedNetworkController
    private var people: [String: User] = [:]
    private var messages: [String: String] = [:]
    private var lookedUp: Set<String> = []

    /// How much of a message an item quotes.
    static let excerptLength = 60

    init(network: AuthenticatedNetworkController) {
        self.network = network
    }

    /// The item for `notification`, fetching its conversation's people and recent messages once.
    mutating func describe(_ notification: BazaarAPI.Notification) async -> NotificationItem {
        guard let conversationID = notification.conversationId else {
            return NotificationItem(notification: notification)
        }
        if !lookedUp.contains(conversationID) {
            lookedUp.insert(conversationID)
            await lookUp(conversationID)
        }
        let excerpt = notification.messageId.flatMap { messages[$0] }.map(Self.excerpt)
        return NotificationItem(notification: notification, from: people[conversationID], excerpt: excerpt)
    }

    private mutating func lookUp(_ conversationID: String) async {
        do throws(NetworkError) {
            if people[conversationID] == nil {
                var cursor: String?
                repeat {
                    let page = try await network.request(BazaarEndpoints.conversations(cursor: cursor, limit: 100))
                    for conversation in page.items { people[conversation.id] = conversation.otherUser }
                    cursor = people[conversationID] == nil ? page.nextCursor : nil
                } while cursor != nil
            }
            let recent = try await network.request(BazaarEndpoints.messages(conversationID: conversationID, limit: 100))
            for message in recent.items { messages[message.id] = message.body }
        } catch {
            return
        }
    }

    /// The first line of `body`, cut at ``excerptLength`` characters with an ellipsis.
    static func excerpt(_ body: String) -> String {
        let line = body.split(whereSeparator: \.isNewline).first.map(String.init) ?? body
        return line.count > excerptLength ? String(line.prefix(excerptLength - 1)) + "…" : line
    }
}
