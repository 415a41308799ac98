import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// Draws a conversation: its header, and each of the state's ``MessageLine``s as
/// `08:20  Ada: text (queued)`; what a line says is the state's, the styles are this renderer's.
struct MessagesRenderer {
    /// The signed-in user, the reader of the lines.
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
        lines += content.lines(viewer: me).map(line(for:))
        return lines
    }

    /// One delivered message.
    func line(for message: Message, in conversation: Conversation) -> ConsoleText {
        line(for: MessageLine(message, in: conversation, viewer: me))
    }

    /// One message still in the outbox.
    func line(for entry: OutboxEntry) -> ConsoleText {
        line(for: MessageLine(entry))
    }

    /// One line as the feature's state says it; an offer's line is marked apart (◆) from what
    /// people wrote.
    func line(for line: MessageLine) -> ConsoleText {
        let body = line.offerID == nil ? line.body.consoleText() : ("◆ " + line.body).consoleText(.warning)
        var text =
            Formats.time(line.time).consoleText(.muted) + "  "
            + "\(line.author):".consoleText(line.isMine ? .info : .heading)
            + " " + body
        if let status = line.status {
            let style: ConsoleStyle =
                switch status {
                case .queued, .sending: .warning
                case .sent: .success
                case .failed: .error
                }
            text = text + " " + "(\(status.text))".consoleText(style)
        }
        return text
    }
}
