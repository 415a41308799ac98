import BazaarAPI
import Dependencies
import Foundation
import Testing

/// What a conversation's lines say is decided in the state both renderers draw.
@Suite("MessagesContent's lines")
struct MessageLineTests {
    static let at = Date(timeIntervalSince1970: 1_800_000_000)
    static let ada = User(
        id: "ada", username: "ada", displayName: "Ada Lovelace", bio: nil, photoURL: nil, createdAt: at)

    @Test(
        "the reader's own messages read You, the other person's their display name; the outbox's follow with their status"
    )
    func linesSayWhoAndWhere() {
        let conversation = Conversation(
            id: "c", otherUser: Self.ada, product: nil, lastMessage: nil, unreadCount: 0, updatedAt: Self.at)
        let content = MessagesContent(
            conversation: conversation,
            messages: [
                Message(id: "m1", conversationId: "c", senderId: "ada", body: "Still for sale.", createdAt: Self.at),
                Message(id: "m2", conversationId: "c", senderId: "me", body: "Great!", createdAt: Self.at + 1),
            ],
            pending: [
                OutboxEntry(
                    id: "e1", recipient: .conversation(id: "c"), body: "Saturday?", state: .queued, attempts: 0,
                    createdAt: Self.at + 2),
                OutboxEntry(
                    id: "e2", recipient: .conversation(id: "c"), body: "Now?", state: .sending, attempts: 1,
                    createdAt: Self.at + 3),
                OutboxEntry(
                    id: "e3", recipient: .conversation(id: "c"), body: "x",
                    state: .failed(reason: "body must be 1-4000 characters."),
                    attempts: 1, createdAt: Self.at + 4),
            ],
            hasOlder: false)
        let lines = content.lines(viewer: "me")
        #expect(lines.map(\.author) == ["Ada Lovelace", "You", "You", "You", "You"])
        #expect(lines.map(\.isMine) == [false, true, true, true, true])
        #expect(
            lines.map { $0.status?.text } == [
                nil, nil, "queued", "sending", "not delivered: body must be 1-4000 characters.",
            ])
        #expect(
            content.lines(viewer: "ada").prefix(2).map(\.author) == ["You", "Ada Lovelace"],
            "the same content read by Ada")
    }
}
