import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// Draws a conversation: its header, each message as `08:20  Ada: text`, and what is still in the
/// outbox; no logic.
struct MessagesRenderer {
    /// The signed-in user, whose messages read "You".
    let me: String

    /// The header line: who the conversation is with and what about.
    func header(for conversation: Conversation) -> [ConsoleText] {
        var title = "Chat with ".consoleText() + Formats.person(conversation.otherUser).consoleText(.heading)
        if let product = conversation.product { title = title + " about " + product.title.consoleText(.heading) }
        return [title, "conversation \(conversation.id)".consoleText(.muted)]
    }

    /// Every line of `content`.
    func lines(for content: MessagesContent) -> [ConsoleText] {
        var lines = header(for: content.conversation)
        if content.hasOlder { lines.append("(older messages not shown)".consoleText(.muted)) }
        lines += content.messages.map { line(for: $0, in: content.conversation) }
        lines += content.pending.map(line(for:))
        return lines
    }

    /// One delivered message.
    func line(for message: Message, in conversation: Conversation) -> ConsoleText {
        let name = message.senderId == me ? "You" : conversation.otherUser.displayName
        let style: ConsoleStyle = message.senderId == me ? .info : .heading
        return Formats.time(message.createdAt).consoleText(.muted) + "  " + "\(name):".consoleText(style) + " " + message.body
            .consoleText()
    }

    /// One message still in the outbox.
    func line(for entry: OutboxEntry) -> ConsoleText {
        let state: ConsoleText =
            switch entry.state {
            case .queued, .sending: "(queued)".consoleText(.warning)
            case .sent: "(sent)".consoleText(.success)
            case .failed(let reason): "(not delivered: \(reason))".consoleText(.error)
            }
        return Formats.time(entry.createdAt).consoleText(.muted) + "  " + "You:".consoleText(.info) + " " + entry.body.consoleText()
            + " " + state
    }
}
