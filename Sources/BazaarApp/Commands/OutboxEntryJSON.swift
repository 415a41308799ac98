import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// An outbox entry as `--json` prints it.
struct OutboxEntryJSON: Encodable {
    var id: String
    var conversationId: String?
    var userId: String?
    var productId: String?
    var body: String
    var state: String
    var messageId: String?
    var reason: String?
    var attempts: Int
    var createdAt: Date

    init(_ entry: OutboxEntry) {
        id = entry.id
        body = entry.body
        attempts = entry.attempts
        createdAt = entry.createdAt
        switch entry.recipient {
        case .conversation(let id): conversationId = id
        case .user(let id, let productID):
            userId = id
            productId = productID
        }
        switch entry.state {
        case .queued: state = "queued"
        case .sending: state = "sending"
        case .sent(let messageID):
            state = "sent"
            messageId = messageID
        case .failed(let why):
            state = "failed"
            reason = why
        }
    }
}
