import Foundation

/// One route of the v1 API: its method and its path template, as `openapi.yaml` writes it.
///
/// Templates name parameters in braces (`/v1/users/{id}`); ``path(_:)`` fills them in.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP method, upper case (`GET`, `POST`, ...).
    public var method: String
    /// The path template, for example `/v1/conversations/{id}/messages`.
    public var template: String
    /// Whether the route needs `Authorization: Bearer <access token>`.
    public var requiresAuth: Bool

    /// Creates a route.
    public init(method: String, template: String, requiresAuth: Bool) {
        self.method = method
        self.template = template
        self.requiresAuth = requiresAuth
    }

    /// The path with each `{parameter}` replaced, in order, by the given values (percent-encoded).
    public func path(_ values: String...) -> String {
        var result = ""
        var remaining = values[...]
        var inParameter = false
        for character in template {
            if character == "{" {
                inParameter = true
                let value = remaining.popFirst() ?? ""
                result +=
                    value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value
            } else if character == "}" {
                inParameter = false
            } else if !inParameter {
                result.append(character)
            }
        }
        return result
    }

    /// `METHOD /template`.
    public var description: String { "\(method) \(template)" }
}

/// Every route of the v1 API, named after what it does.
public enum APIRoutes {
    /// `POST /v1/auth/register`: create an account.
    public static let register = APIRoute(method: "POST", template: "/v1/auth/register", requiresAuth: false)
    /// `POST /v1/auth/login`: sign in.
    public static let login = APIRoute(method: "POST", template: "/v1/auth/login", requiresAuth: false)
    /// `POST /v1/auth/refresh`: trade a refresh token for new tokens.
    public static let refresh = APIRoute(method: "POST", template: "/v1/auth/refresh", requiresAuth: false)
    /// `POST /v1/auth/logout`: revoke the session.
    public static let logout = APIRoute(method: "POST", template: "/v1/auth/logout", requiresAuth: true)
    /// `GET /v1/users/me`: the signed-in user.
    public static let me = APIRoute(method: "GET", template: "/v1/users/me", requiresAuth: true)
    /// `PATCH /v1/users/me`: change display name or bio.
    public static let updateMe = APIRoute(method: "PATCH", template: "/v1/users/me", requiresAuth: true)
    /// `PUT /v1/users/me/photo`: upload a profile photo as the raw body.
    public static let uploadPhoto = APIRoute(method: "PUT", template: "/v1/users/me/photo", requiresAuth: true)
    /// `GET /v1/users/{id}`: a public profile.
    public static let user = APIRoute(method: "GET", template: "/v1/users/{id}", requiresAuth: false)
    /// `GET /v1/users/{id}/photo`: a profile photo.
    public static let userPhoto = APIRoute(method: "GET", template: "/v1/users/{id}/photo", requiresAuth: false)
    /// `GET /v1/products`: list and search products.
    public static let products = APIRoute(method: "GET", template: "/v1/products", requiresAuth: false)
    /// `GET /v1/products/{id}`: one product.
    public static let product = APIRoute(method: "GET", template: "/v1/products/{id}", requiresAuth: false)
    /// `POST /v1/products`: list a product for sale.
    public static let createProduct = APIRoute(method: "POST", template: "/v1/products", requiresAuth: true)
    /// `PATCH /v1/products/{id}`: change a listing's title, description or price, as the seller.
    public static let updateProduct = APIRoute(method: "PATCH", template: "/v1/products/{id}", requiresAuth: true)
    /// `DELETE /v1/products/{id}`: take a listing down for good, as the seller.
    public static let deleteProduct = APIRoute(method: "DELETE", template: "/v1/products/{id}", requiresAuth: true)
    /// `PUT /v1/products/{id}/status`: mark a listing available, reserved or sold, as the seller.
    public static let changeProductStatus = APIRoute(
        method: "PUT", template: "/v1/products/{id}/status", requiresAuth: true)
    /// `PUT /v1/products/{id}/favourite`: save a product (idempotent).
    public static let saveFavourite = APIRoute(
        method: "PUT", template: "/v1/products/{id}/favourite", requiresAuth: true)
    /// `DELETE /v1/products/{id}/favourite`: stop saving a product (idempotent).
    public static let removeFavourite = APIRoute(
        method: "DELETE", template: "/v1/products/{id}/favourite", requiresAuth: true)
    /// `GET /v1/users/me/favourites`: the products the caller saved, most recently saved first.
    public static let favourites = APIRoute(method: "GET", template: "/v1/users/me/favourites", requiresAuth: true)
    /// `POST /v1/products/{id}/reviews`: review the other party of a sale.
    public static let reviewProduct = APIRoute(
        method: "POST", template: "/v1/products/{id}/reviews", requiresAuth: true)
    /// `GET /v1/users/{id}/reviews`: the reviews a user received, newest first.
    public static let userReviews = APIRoute(method: "GET", template: "/v1/users/{id}/reviews", requiresAuth: false)
    /// `POST /v1/products/{id}/photos`: add a photo (the image is the body) as the seller.
    public static let addProductPhoto = APIRoute(
        method: "POST", template: "/v1/products/{id}/photos", requiresAuth: true)
    /// `PUT /v1/products/{id}/photos`: put the product's photos in a new order, as the seller.
    public static let reorderProductPhotos = APIRoute(
        method: "PUT", template: "/v1/products/{id}/photos", requiresAuth: true)
    /// `GET /v1/products/{id}/photos/{photo}`: one photo's image.
    public static let productPhoto = APIRoute(
        method: "GET", template: "/v1/products/{id}/photos/{photo}", requiresAuth: false)
    /// `DELETE /v1/products/{id}/photos/{photo}`: remove a photo, as the seller.
    public static let removeProductPhoto = APIRoute(
        method: "DELETE", template: "/v1/products/{id}/photos/{photo}", requiresAuth: true)
    /// `GET /v1/conversations`: the caller's conversations.
    public static let conversations = APIRoute(method: "GET", template: "/v1/conversations", requiresAuth: true)
    /// `GET /v1/conversations/{id}`: one of the caller's conversations.
    public static let conversation = APIRoute(method: "GET", template: "/v1/conversations/{id}", requiresAuth: true)
    /// `POST /v1/conversations`: open (or find) a conversation.
    public static let startConversation = APIRoute(method: "POST", template: "/v1/conversations", requiresAuth: true)
    /// `GET /v1/conversations/{id}/messages`: messages, newest first.
    public static let messages = APIRoute(
        method: "GET", template: "/v1/conversations/{id}/messages", requiresAuth: true)
    /// `POST /v1/conversations/{id}/messages`: send a message (needs `Idempotency-Key`).
    public static let sendMessage = APIRoute(
        method: "POST", template: "/v1/conversations/{id}/messages", requiresAuth: true)
    /// `POST /v1/conversations/{id}/attachments`: upload a photo (the image is the body) to send
    /// in this conversation with the next message.
    public static let uploadAttachment = APIRoute(
        method: "POST", template: "/v1/conversations/{id}/attachments", requiresAuth: true)
    /// `GET /v1/conversations/{id}/attachments/{attachment}`: a chat photo's image, for the
    /// conversation's members only.
    public static let attachment = APIRoute(
        method: "GET", template: "/v1/conversations/{id}/attachments/{attachment}", requiresAuth: true)
    /// `POST /v1/conversations/{id}/offers`: make an offer on the conversation's product (needs
    /// `Idempotency-Key`).
    public static let makeOffer = APIRoute(
        method: "POST", template: "/v1/conversations/{id}/offers", requiresAuth: true)
    /// `GET /v1/conversations/{id}/offers`: the conversation's offers, newest first.
    public static let conversationOffers = APIRoute(
        method: "GET", template: "/v1/conversations/{id}/offers", requiresAuth: true)
    /// `POST /v1/offers/{id}/accept`: accept an offer on your product (it becomes reserved).
    public static let acceptOffer = APIRoute(method: "POST", template: "/v1/offers/{id}/accept", requiresAuth: true)
    /// `POST /v1/offers/{id}/decline`: decline an offer on your product.
    public static let declineOffer = APIRoute(method: "POST", template: "/v1/offers/{id}/decline", requiresAuth: true)
    /// `POST /v1/offers/{id}/withdraw`: take back your offer.
    public static let withdrawOffer = APIRoute(
        method: "POST", template: "/v1/offers/{id}/withdraw", requiresAuth: true)
    /// `POST /v1/conversations/{id}/read`: mark messages read.
    public static let markRead = APIRoute(method: "POST", template: "/v1/conversations/{id}/read", requiresAuth: true)
    /// `GET /v1/notifications`: the caller's notifications, newest first.
    public static let notifications = APIRoute(method: "GET", template: "/v1/notifications", requiresAuth: true)
    /// `POST /v1/notifications/read`: mark notifications read.
    public static let markNotificationsRead = APIRoute(
        method: "POST", template: "/v1/notifications/read", requiresAuth: true)
    /// `GET /v1/events`: the live-event WebSocket.
    public static let events = APIRoute(method: "GET", template: "/v1/events", requiresAuth: true)
    /// `PUT /v1/users/{id}/block`: block a user (idempotent).
    public static let blockUser = APIRoute(method: "PUT", template: "/v1/users/{id}/block", requiresAuth: true)
    /// `DELETE /v1/users/{id}/block`: stop blocking a user (idempotent).
    public static let unblockUser = APIRoute(method: "DELETE", template: "/v1/users/{id}/block", requiresAuth: true)
    /// `GET /v1/users/me/blocks`: the users the caller blocked, most recent first.
    public static let blocks = APIRoute(method: "GET", template: "/v1/users/me/blocks", requiresAuth: true)
    /// `POST /v1/reports`: report a user, a product or a message to the moderators.
    public static let createReport = APIRoute(method: "POST", template: "/v1/reports", requiresAuth: true)
    /// `GET /v1/reports`: the caller's own reports and their outcomes, newest first.
    public static let myReports = APIRoute(method: "GET", template: "/v1/reports", requiresAuth: true)
    /// `GET /v1/moderation/reports`: the report queue, oldest first (moderators only).
    public static let moderationReports = APIRoute(
        method: "GET", template: "/v1/moderation/reports", requiresAuth: true)
    /// `GET /v1/moderation/reports/{id}`: one report with its subject in context (moderators only).
    public static let moderationReport = APIRoute(
        method: "GET", template: "/v1/moderation/reports/{id}", requiresAuth: true)
    /// `POST /v1/moderation/reports/{id}/resolve`: act on a report (moderators only).
    public static let resolveReport = APIRoute(
        method: "POST", template: "/v1/moderation/reports/{id}/resolve", requiresAuth: true)
    /// `PUT /v1/users/me/password`: change the password; every other session ends.
    public static let changePassword = APIRoute(method: "PUT", template: "/v1/users/me/password", requiresAuth: true)
    /// `GET /v1/users/me/sessions`: the caller's signed-in sessions.
    public static let sessions = APIRoute(method: "GET", template: "/v1/users/me/sessions", requiresAuth: true)
    /// `DELETE /v1/users/me/sessions/{id}`: end one session.
    public static let endSession = APIRoute(
        method: "DELETE", template: "/v1/users/me/sessions/{id}", requiresAuth: true)
    /// `DELETE /v1/users/me/sessions`: end every session but the caller's.
    public static let endOtherSessions = APIRoute(
        method: "DELETE", template: "/v1/users/me/sessions", requiresAuth: true)
    /// `GET /v1/users/me/export`: everything of the caller's, as a ZIP.
    public static let exportAccount = APIRoute(method: "GET", template: "/v1/users/me/export", requiresAuth: true)
    /// `DELETE /v1/users/me`: delete the account (needs the password).
    public static let deleteAccount = APIRoute(method: "DELETE", template: "/v1/users/me", requiresAuth: true)
    /// `GET /health`: this server and its database answer (503 when the database does not).
    public static let health = APIRoute(method: "GET", template: "/health", requiresAuth: false)
    /// `GET /health/live`: the process can answer (200 whatever the database does: a liveness
    /// probe that restarts replicas during a database blip would make the blip an outage).
    public static let healthLive = APIRoute(method: "GET", template: "/health/live", requiresAuth: false)
    /// `GET /health/ready`: migrations done, database reachable, not draining; 503 otherwise.
    public static let healthReady = APIRoute(method: "GET", template: "/health/ready", requiresAuth: false)
    /// `GET /metrics`: Prometheus text.
    public static let metrics = APIRoute(method: "GET", template: "/metrics", requiresAuth: false)

    /// Every route above, in the order the contract lists them.
    public static let all: [APIRoute] = [
        register, login, refresh, logout, me, updateMe, uploadPhoto, user, userPhoto, products,
        product, createProduct, updateProduct, deleteProduct, changeProductStatus, saveFavourite, removeFavourite,
        favourites, reviewProduct, userReviews, addProductPhoto,
        reorderProductPhotos, productPhoto, removeProductPhoto, conversations,
        startConversation, conversation, messages, sendMessage, uploadAttachment, attachment, makeOffer,
        conversationOffers, acceptOffer,
        declineOffer, withdrawOffer, markRead,
        notifications, markNotificationsRead, blockUser, unblockUser, blocks, createReport, myReports,
        moderationReports,
        moderationReport, resolveReport, changePassword, sessions, endSession, endOtherSessions, exportAccount,
        deleteAccount, events, health, healthLive, healthReady, metrics,
    ]
}

/// Header names the contract uses beyond the standard ones.
public enum APIHeaders {
    /// `Idempotency-Key`: makes a message send exactly-once per (user, key).
    public static let idempotencyKey = "Idempotency-Key"
    /// `Idempotent-Replayed`: `true` on an answer replayed for a repeated `Idempotency-Key`.
    public static let idempotentReplayed = "Idempotent-Replayed"
}
