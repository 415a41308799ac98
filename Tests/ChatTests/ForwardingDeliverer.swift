import BazaarAPI
import Chat
import Dependencies
import Networking

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
