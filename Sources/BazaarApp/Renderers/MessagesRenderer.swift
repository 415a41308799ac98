import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// Draws a conversation: its header, and each of the state's ``MessageLine``s as
/// `08:20  Ada: text (queued)`, each photo it carries on a line of its own with the command that
/// saves it; what a line says is the state's, the styles are this renderer's.
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
        lines += content.lines(viewer: me).flatMap(lines(for:))
        return lines
    }

    /// One delivered message, and a line for each photo it carries.
    func lines(for message: Message, in conversation: Conversation) -> [ConsoleText] {
        lines(for: MessageLine(message, in: conversation, viewer: me))
    }

    /// A message's line, then a line for each photo: `📷 1/2  1600×1200  bazaar chat photo 9d4b 5e6f`.
    func lines(for line: MessageLine) -> [ConsoleText] {
        var lines = [self.line(for: line)]
        for (index, photo) in line.photos.enumerated() {
            let size = photo.width.flatMap { width in photo.height.map { "\(width)×\($0)" } } ?? ""
            let save =
                line.conversationID.map { "bazaar chat photo \(KnownIDs.short($0)) \(KnownIDs.short(photo.id))" } ?? ""
            lines.append(
                "       📷 photo \(index + 1) of \(line.photos.count)".consoleText(.info)
                    + "  \(size)  ".consoleText(.muted)
                    + save.consoleText(.muted))
        }
        return lines
    }

    /// One message still in the outbox.
    func line(for entry: OutboxEntry) -> ConsoleText {
        line(for: MessageLine(entry))
    }

    /// One line as the feature's state says it; an offer's line is marked apart (◆) from what
    /// people wrote.
    func line(for line: MessageLine) -> ConsoleText {
        let said = line.body.isEmpty ? "(\(line.photoSummary ?? ""))" : line.body
        var body = line.offerID == nil ? said.consoleText() : ("◆ " + said).consoleText(.warning)
        if line.status != nil, line.photoCount > 0, !line.body.isEmpty {
            body = body + " (+\(line.photoSummary ?? ""))".consoleText(.muted)
        }
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
