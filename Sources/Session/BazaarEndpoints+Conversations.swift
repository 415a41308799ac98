import BazaarAPI
import Foundation
import Networking

/// Conversations: their messages, photos and offers.
extension BazaarEndpoints {
    /// `GET /v1/conversations`: a page of the signed-in user's conversations, newest activity first.
    public static func conversations(cursor: String? = nil, limit: Int? = nil) -> AuthenticatedEndpoint<
        Page<Conversation>
    > {
        AuthenticatedEndpoint(
            .get, APIRoutes.conversations.template, parameters: .url(["cursor": cursor, "limit": limit]))
    }

    /// `GET /v1/conversations/{id}`: one of the signed-in user's conversations, as in the list
    /// (404 for one that is not theirs, as for one that does not exist).
    public static func conversation(id: String) -> AuthenticatedEndpoint<Conversation> {
        AuthenticatedEndpoint(.get, APIRoutes.conversation.path(id))
    }

    /// `POST /v1/conversations`: start (or find) the conversation with a user about a product.
    public static func startConversation(_ body: StartConversationRequest) -> AuthenticatedEndpoint<Conversation> {
        AuthenticatedEndpoint(.post, APIRoutes.startConversation.template, parameters: .json(body))
    }

    /// `GET /v1/conversations/{id}/messages`: a page of messages, newest first.
    public static func messages(conversationID: String, before: String? = nil, limit: Int? = nil)
        -> AuthenticatedEndpoint<Page<Message>>
    {
        AuthenticatedEndpoint(
            .get, APIRoutes.messages.path(conversationID), parameters: .url(["before": before, "limit": limit]))
    }

    /// `POST /v1/conversations/{id}/messages`: send a message exactly once per `idempotencyKey`.
    public static func sendMessage(
        conversationID: String, body: String, attachmentIds: [String] = [], idempotencyKey: String
    ) -> AuthenticatedEndpoint<Message> {
        AuthenticatedEndpoint(
            .post, APIRoutes.sendMessage.path(conversationID),
            parameters: .json(SendMessageRequest(body: body, attachmentIds: attachmentIds)),
            headers: [APIHeaders.idempotencyKey: idempotencyKey])
    }

    /// `POST /v1/conversations/{id}/attachments`: upload a photo (the image is the body) to send
    /// with a message in the conversation; answers its sizes' URLs.
    public static func uploadAttachment(conversationID: String, image: Data, mediaType: MediaType)
        -> AuthenticatedEndpoint<Photo>
    {
        AuthenticatedEndpoint(
            .post, APIRoutes.uploadAttachment.path(conversationID), parameters: .raw(image, mediaType: mediaType))
    }

    /// `GET /v1/conversations/{id}/attachments/{attachment}`: one size of a chat photo, with the
    /// signed-in session (the conversation's members only; 404 for anyone else).
    public static func attachmentPhoto(conversationID: String, attachmentId: String, size: PhotoSize = .full)
        -> AuthenticatedEndpoint<Data>
    {
        var query = QueryParameters()
        if size != .full { query.append("size", size.rawValue) }
        return AuthenticatedEndpoint(
            .get, APIRoutes.attachment.path(conversationID, attachmentId), parameters: .url(query))
    }

    /// `POST /v1/conversations/{id}/offers`: offer `amountCents` for the conversation's product,
    /// exactly once per `idempotencyKey` (the same key again answers the same offer).
    public static func makeOffer(conversationID: String, amountCents: Int, idempotencyKey: String)
        -> AuthenticatedEndpoint<Offer>
    {
        AuthenticatedEndpoint(
            .post, APIRoutes.makeOffer.path(conversationID),
            parameters: .json(CreateOfferRequest(amountCents: amountCents)),
            headers: [APIHeaders.idempotencyKey: idempotencyKey])
    }

    /// `GET /v1/conversations/{id}/offers`: a page of the conversation's offers, newest first.
    public static func offers(conversationID: String, cursor: String? = nil, limit: Int? = nil)
        -> AuthenticatedEndpoint<Page<Offer>>
    {
        AuthenticatedEndpoint(
            .get, APIRoutes.conversationOffers.path(conversationID),
            parameters: .url(["cursor": cursor, "limit": limit]))
    }

    /// `POST /v1/offers/{id}/accept`: accept an offer on your product (it becomes reserved for
    /// the buyer; every other open offer on it is declined).
    public static func acceptOffer(id: String) -> AuthenticatedEndpoint<Offer> {
        AuthenticatedEndpoint(.post, APIRoutes.acceptOffer.path(id))
    }

    /// `POST /v1/offers/{id}/decline`: decline an offer on your product.
    public static func declineOffer(id: String) -> AuthenticatedEndpoint<Offer> {
        AuthenticatedEndpoint(.post, APIRoutes.declineOffer.path(id))
    }

    /// `POST /v1/offers/{id}/withdraw`: take back your offer.
    public static func withdrawOffer(id: String) -> AuthenticatedEndpoint<Offer> {
        AuthenticatedEndpoint(.post, APIRoutes.withdrawOffer.path(id))
    }

    /// `POST /v1/conversations/{id}/read`: mark messages read up to one.
    public static func markRead(conversationID: String, upTo messageID: String) -> AuthenticatedEndpoint<EmptyResponse>
    {
        AuthenticatedEndpoint(
            .post, APIRoutes.markRead.path(conversationID), parameters: .json(MarkReadRequest(upTo: messageID)))
    }
}
