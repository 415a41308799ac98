import BazaarAPI
import Dependencies
import Networking
import Session

/// Delivers one outbox message to Bazaar: finds or starts the conversation when the message was
/// queued for a person, then posts the message with the entry's id as its `Idempotency-Key`, so
/// every attempt of one message is the same request to the server.
public protocol OutboxDeliverer: Sendable {
    /// The conversation for a message to `userID` about `productID` (found or started).
    func conversation(withUser userID: String, aboutProduct productID: String?) async throws(NetworkError) -> String
    /// Uploads one photo to `conversationID`, to be sent with a message; returns its attachment.
    func upload(_ photo: PhotoToSend, to conversationID: String) async throws(NetworkError) -> Photo
    /// Posts `body` with the uploaded `attachmentIDs` into `conversationID` under
    /// `idempotencyKey`; returns the server's message.
    func post(_ body: String, attachmentIDs: [String], to conversationID: String, idempotencyKey: String)
        async throws(NetworkError) -> Message
}

/// The deliverer over the signed-in user's authenticated controller.
public struct BazaarOutboxDeliverer: OutboxDeliverer {
    private let network: AuthenticatedNetworkController

    /// Makes a deliverer for the user whose controller this is.
    public init(network: AuthenticatedNetworkController) {
        self.network = network
    }

    /// `POST /v1/conversations`: the same conversation for the same pair and product every time.
    public func conversation(withUser userID: String, aboutProduct productID: String?) async throws(NetworkError)
        -> String
    {
        try await network.request(
            BazaarEndpoints.startConversation(StartConversationRequest(userId: userID, productId: productID))
        ).id
    }

    /// `POST /v1/conversations/{id}/attachments` with the image as the body.
    public func upload(_ photo: PhotoToSend, to conversationID: String) async throws(NetworkError) -> Photo {
        try await network.request(
            BazaarEndpoints.uploadAttachment(
                conversationID: conversationID, image: photo.data, mediaType: photo.mediaType))
    }

    /// `POST /v1/conversations/{id}/messages` with the key.
    public func post(_ body: String, attachmentIDs: [String], to conversationID: String, idempotencyKey: String)
        async throws(NetworkError) -> Message
    {
        try await network.request(
            BazaarEndpoints.sendMessage(
                conversationID: conversationID, body: body, attachmentIds: attachmentIDs, idempotencyKey: idempotencyKey
            ))
    }
}
