import BazaarAPI
import Chat
import Dependencies
import Networking
import Synchronization

/// A test's deliverer around the real one: it passes conversations and uploads through and
/// implements only `post`, to count posts or hold their answers back.
protocol ForwardingDeliverer: OutboxDeliverer {
    /// The deliverer everything goes through in the end.
    var real: BazaarOutboxDeliverer { get }
}

extension ForwardingDeliverer {
    func conversation(withUser userID: String, aboutProduct productID: String?) async throws(NetworkError) -> String {
        try await real.conversation(withUser: userID, aboutProduct: productID)
    }

    func upload(_ photo: PhotoToSend, to conversationID: String) async throws(NetworkError) -> Photo {
        try await real.upload(photo, to: conversationID)
    }
}

/// The real deliverer, losing the answer of every post after the first `answered`: the server
/// stores the message, the outbox hears a timeout.
final class LosesAnswers: ForwardingDeliverer {
    let real: BazaarOutboxDeliverer
    private let answered: Int
    private let posts = Mutex(0)

    init(real: BazaarOutboxDeliverer, after answered: Int) {
        self.real = real
        self.answered = answered
    }

    func post(_ body: String, attachmentIDs: [String], to conversationID: String, idempotencyKey: String)
        async throws(NetworkError) -> Message
    {
        let message = try await real.post(
            body, attachmentIDs: attachmentIDs, to: conversationID, idempotencyKey: idempotencyKey)
        let made = posts.withLock { count in
            count += 1
            return count
        }
        guard made <= answered else { throw .timedOut }
        return message
    }
}
