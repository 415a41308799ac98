import BazaarAPI
import Foundation
import Networking

/// Every route of Bazaar's v1 API as a typed endpoint, each in its scope: public routes are
/// `NonAuthenticatedEndpoint`s, the signed-in user's are `AuthenticatedEndpoint`s, so the
/// compiler keeps each with its controller. Paths come from `BazaarAPI.APIRoutes`, which the server
/// routes by too, so client and server cannot drift.
///
/// The live-event WebSocket (`GET /v1/events`) is not a request/response route; the chat module
/// connects to it with the session's access token.
public enum BazaarEndpoints {
    // MARK: Auth

    /// `POST /v1/auth/register`: a new account and its first tokens.
    public static func register(_ body: RegisterRequest) -> NonAuthenticatedEndpoint<AuthResponse> {
        NonAuthenticatedEndpoint(.post, APIRoutes.register.template, parameters: .json(body), retryPolicy: .never)
    }

    /// `POST /v1/auth/login`: tokens for an existing account.
    public static func login(_ body: LoginRequest) -> NonAuthenticatedEndpoint<AuthResponse> {
        NonAuthenticatedEndpoint(.post, APIRoutes.login.template, parameters: .json(body), retryPolicy: .never)
    }

    /// `POST /v1/auth/refresh`: new tokens for a refresh token (which rotates). Never retried: a
    /// replayed refresh token counts as reuse and would end the session.
    public static func refresh(_ refreshToken: String) -> NonAuthenticatedEndpoint<Tokens> {
        NonAuthenticatedEndpoint(
            .post, APIRoutes.refresh.template, parameters: .json(RefreshRequest(refreshToken: refreshToken)),
            cachePolicy: .disabled, retryPolicy: .never)
    }

    /// `POST /v1/auth/logout`: revokes the session's refresh tokens.
    public static let logout = AuthenticatedEndpoint<EmptyResponse>(
        .post, APIRoutes.logout.template, retryPolicy: .never)

    // MARK: Users

    /// `GET /v1/users/me`: the signed-in user.
    public static let me = AuthenticatedEndpoint<User>(.get, APIRoutes.me.template)

    /// `PATCH /v1/users/me`: change the display name or bio.
    public static func updateMe(_ body: UpdateProfileRequest) -> AuthenticatedEndpoint<User> {
        AuthenticatedEndpoint(.patch, APIRoutes.updateMe.template, parameters: .json(body))
    }

    /// `PUT /v1/users/me/photo`: upload a profile photo (JPEG, PNG or WebP bytes).
    public static func uploadPhoto(_ bytes: Data, mediaType: MediaType) -> AuthenticatedEndpoint<User> {
        AuthenticatedEndpoint(.put, APIRoutes.uploadPhoto.template, parameters: .raw(bytes, mediaType: mediaType))
    }

    /// `GET /v1/users/{id}`: anyone's public profile.
    public static func user(id: String) -> NonAuthenticatedEndpoint<User> {
        NonAuthenticatedEndpoint(.get, APIRoutes.user.path(id))
    }

    /// `GET /v1/users/{id}/photo`: a user's photo bytes (cached, revalidated by ETag).
    public static func userPhoto(id: String) -> NonAuthenticatedEndpoint<Data> {
        NonAuthenticatedEndpoint(.get, APIRoutes.userPhoto.path(id))
    }

    // MARK: Products

    /// `GET /v1/products`: a page of products, optionally matching `query`.
    public static func products(query: String? = nil, cursor: String? = nil, limit: Int? = nil)
        -> NonAuthenticatedEndpoint<Page<Product>>
    {
        products(search: ProductSearch(text: query), cursor: cursor, limit: limit)
    }

    /// `GET /v1/products`: a page of the products `search` finds (text, price range, seller) in
    /// its order; `cursor` continues from the previous page of the same search.
    public static func products(search: ProductSearch, cursor: String? = nil, limit: Int? = nil)
        -> NonAuthenticatedEndpoint<Page<Product>>
    {
        var query = QueryParameters(search.queryParameters.map { QueryParameters.Item(name: $0.name, value: $0.value) })
        if let cursor { query.append("cursor", cursor) }
        if let limit { query.append("limit", limit) }
        return NonAuthenticatedEndpoint(.get, APIRoutes.products.template, parameters: .url(query))
    }

    /// `POST /v1/products/{id}/photos`: add a photo (JPEG, PNG or WebP bytes) as the last of one
    /// of your products; send it with a progress handler to follow the upload.
    public static func addProductPhoto(productId: String, image: Data, mediaType: MediaType) -> AuthenticatedEndpoint<
        Product
    > {
        AuthenticatedEndpoint(
            .post, APIRoutes.addProductPhoto.path(productId), parameters: .raw(image, mediaType: mediaType))
    }

    /// `PUT /v1/products/{id}/photos`: put one of your products' photos in a new order, cover first.
    public static func reorderProductPhotos(productId: String, photoIds: [String]) -> AuthenticatedEndpoint<Product> {
        AuthenticatedEndpoint(
            .put, APIRoutes.reorderProductPhotos.path(productId),
            parameters: .json(ReorderPhotosRequest(photoIds: photoIds)))
    }

    /// `GET /v1/products/{id}/photos/{photo}`: one photo's bytes (cacheable for a year: its URL
    /// names one upload).
    public static func productPhoto(productId: String, photoId: String) -> NonAuthenticatedEndpoint<Data> {
        NonAuthenticatedEndpoint(.get, APIRoutes.productPhoto.path(productId, photoId))
    }

    /// `DELETE /v1/products/{id}/photos/{photo}`: remove a photo from one of your products.
    public static func removeProductPhoto(productId: String, photoId: String) -> AuthenticatedEndpoint<Product> {
        AuthenticatedEndpoint(.delete, APIRoutes.removeProductPhoto.path(productId, photoId))
    }

    /// `GET /v1/products/{id}`: one product.
    public static func product(id: String) -> NonAuthenticatedEndpoint<Product> {
        NonAuthenticatedEndpoint(.get, APIRoutes.product.path(id))
    }

    /// `POST /v1/products`: list a product for sale.
    public static func createProduct(_ body: CreateProductRequest) -> AuthenticatedEndpoint<Product> {
        AuthenticatedEndpoint(.post, APIRoutes.createProduct.template, parameters: .json(body))
    }

    /// `PATCH /v1/products/{id}`: change the title, description, price or currency of one of
    /// your products (fields left `nil` stay).
    public static func updateProduct(id: String, _ body: UpdateProductRequest) -> AuthenticatedEndpoint<Product> {
        AuthenticatedEndpoint(.patch, APIRoutes.updateProduct.path(id), parameters: .json(body))
    }

    /// `PUT /v1/products/{id}/status`: mark one of your products available, reserved or sold
    /// (the last two for a buyer you have a conversation with about it).
    public static func changeProductStatus(id: String, _ body: ChangeProductStatusRequest)
        -> AuthenticatedEndpoint<Product>
    {
        AuthenticatedEndpoint(.put, APIRoutes.changeProductStatus.path(id), parameters: .json(body))
    }

    /// `PUT /v1/products/{id}/favourite`: save a product (saving it again changes nothing).
    public static func saveFavourite(productId: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.put, APIRoutes.saveFavourite.path(productId))
    }

    /// `DELETE /v1/products/{id}/favourite`: stop saving a product.
    public static func removeFavourite(productId: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.delete, APIRoutes.removeFavourite.path(productId))
    }

    /// `GET /v1/users/me/favourites`: a page of the products you saved, most recently saved first.
    public static func favourites(cursor: String? = nil, limit: Int? = nil) -> AuthenticatedEndpoint<Page<Product>> {
        AuthenticatedEndpoint(
            .get, APIRoutes.favourites.template, parameters: .url(["cursor": cursor, "limit": limit]))
    }

    /// `POST /v1/products/{id}/reviews`: review the other party of the sale of a product you sold or bought.
    public static func reviewProduct(id: String, _ body: CreateReviewRequest) -> AuthenticatedEndpoint<Review> {
        AuthenticatedEndpoint(.post, APIRoutes.reviewProduct.path(id), parameters: .json(body))
    }

    /// `GET /v1/users/{id}/reviews`: a page of the reviews a user received, newest first.
    public static func reviews(userId: String, cursor: String? = nil, limit: Int? = nil)
        -> NonAuthenticatedEndpoint<Page<Review>>
    {
        NonAuthenticatedEndpoint(
            .get, APIRoutes.userReviews.path(userId), parameters: .url(["cursor": cursor, "limit": limit]))
    }

    /// `DELETE /v1/products/{id}`: take one of your products down for good.
    public static func deleteProduct(id: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.delete, APIRoutes.deleteProduct.path(id))
    }

    // MARK: Conversations and messages

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

    // MARK: Notifications

    /// `GET /v1/notifications`: a page of the signed-in user's notifications.
    public static func notifications(cursor: String? = nil, limit: Int? = nil)
        -> AuthenticatedEndpoint<Page<BazaarAPI.Notification>>
    {
        AuthenticatedEndpoint(
            .get, APIRoutes.notifications.template, parameters: .url(["cursor": cursor, "limit": limit]))
    }

    /// `POST /v1/notifications/read`: mark some or all notifications read.
    public static func markNotificationsRead(_ body: MarkNotificationsReadRequest) -> AuthenticatedEndpoint<
        EmptyResponse
    > {
        AuthenticatedEndpoint(.post, APIRoutes.markNotificationsRead.template, parameters: .json(body))
    }

    // MARK: Blocking, reports and moderation

    /// `PUT /v1/users/{id}/block`: block a user (idempotent): neither of you can then start a
    /// conversation, send a message or an offer to the other.
    public static func blockUser(id: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.put, APIRoutes.blockUser.path(id))
    }

    /// `DELETE /v1/users/{id}/block`: stop blocking a user (idempotent).
    public static func unblockUser(id: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.delete, APIRoutes.unblockUser.path(id))
    }

    /// `GET /v1/users/me/blocks`: a page of the people you blocked, most recent first.
    public static func blocks(cursor: String? = nil, limit: Int? = nil) -> AuthenticatedEndpoint<Page<User>> {
        AuthenticatedEndpoint(.get, APIRoutes.blocks.template, parameters: .url(["cursor": cursor, "limit": limit]))
    }

    /// `POST /v1/reports`: report a user, a product or a message (201 for a new report, 200 with
    /// your open report of the same subject).
    public static func report(_ body: CreateReportRequest) -> AuthenticatedEndpoint<Report> {
        AuthenticatedEndpoint(.post, APIRoutes.createReport.template, parameters: .json(body))
    }

    /// `GET /v1/reports`: a page of your reports with their outcomes, newest first.
    public static func myReports(cursor: String? = nil, limit: Int? = nil) -> AuthenticatedEndpoint<Page<Report>> {
        AuthenticatedEndpoint(
            .get, APIRoutes.myReports.template, parameters: .url(["cursor": cursor, "limit": limit]),
            cachePolicy: .disabled)
    }

    /// `GET /v1/moderation/reports`: a page of the queue, oldest first (moderators only; 404 for
    /// anyone else).
    public static func moderationReports(status: ReportStatus = .open, cursor: String? = nil, limit: Int? = nil)
        -> AuthenticatedEndpoint<Page<Report>>
    {
        AuthenticatedEndpoint(
            .get, APIRoutes.moderationReports.template,
            parameters: .url(["status": status.rawValue, "cursor": cursor, "limit": limit]), cachePolicy: .disabled)
    }

    /// `GET /v1/moderation/reports/{id}`: one report with its subject in context (moderators only).
    public static func moderationReport(id: String) -> AuthenticatedEndpoint<ModerationItem> {
        AuthenticatedEndpoint(.get, APIRoutes.moderationReport.path(id), cachePolicy: .disabled)
    }

    /// `POST /v1/moderation/reports/{id}/resolve`: act on a report (moderators only).
    public static func resolveReport(id: String, _ body: ResolveReportRequest) -> AuthenticatedEndpoint<Report> {
        AuthenticatedEndpoint(
            .post, APIRoutes.resolveReport.path(id), parameters: .json(body), retryPolicy: .never)
    }

    // MARK: The account

    /// `PUT /v1/users/me/password`: change your password; every other session ends at once.
    /// Never retried: a wrong current password counts toward the sign-in throttle.
    public static func changePassword(_ body: ChangePasswordRequest) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.put, APIRoutes.changePassword.template, parameters: .json(body), retryPolicy: .never)
    }

    /// `GET /v1/users/me/sessions`: the sessions signed in to your account (this one marked `current`).
    public static let sessions = AuthenticatedEndpoint<AccountSessions>(
        .get, APIRoutes.sessions.template, cachePolicy: .disabled)

    /// `DELETE /v1/users/me/sessions/{id}`: sign one of your sessions out.
    public static func endSession(id: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.delete, APIRoutes.endSession.path(id))
    }

    /// `DELETE /v1/users/me/sessions`: sign out every session but this one.
    public static let endOtherSessions = AuthenticatedEndpoint<EmptyResponse>(
        .delete, APIRoutes.endOtherSessions.template)

    /// `GET /v1/users/me/export`: everything of yours, as the bytes of a ZIP archive.
    public static let exportAccount = AuthenticatedEndpoint<Data>(
        .get, APIRoutes.exportAccount.template, cachePolicy: .disabled)

    /// `DELETE /v1/users/me`: delete your account for good (the password is asked again). Never
    /// retried: a wrong password counts toward the sign-in throttle.
    public static func deleteAccount(password: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(
            .delete, APIRoutes.deleteAccount.template, parameters: .json(DeleteAccountRequest(password: password)),
            retryPolicy: .never)
    }

    // MARK: Operations

    /// `GET /health`: this server and its database answer (503 when the database does not).
    public static let health = NonAuthenticatedEndpoint<Data>(.get, APIRoutes.health.template, cachePolicy: .disabled)

    /// `GET /health/live`: the process answers (200 whatever its database does).
    public static let healthLive = NonAuthenticatedEndpoint<Data>(
        .get, APIRoutes.healthLive.template, cachePolicy: .disabled)

    /// `GET /health/ready`: the server should get traffic (database reachable, not draining); 503 otherwise.
    public static let healthReady = NonAuthenticatedEndpoint<Data>(
        .get, APIRoutes.healthReady.template, cachePolicy: .disabled)

    /// `GET /metrics`: Prometheus text.
    public static let metrics = NonAuthenticatedEndpoint<Data>(.get, APIRoutes.metrics.template, cachePolicy: .disabled)
}
