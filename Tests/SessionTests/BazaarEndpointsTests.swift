import BazaarAPI
import Foundation
import Networking
import Session
import Testing

@Suite("BazaarEndpoints")
struct BazaarEndpointsTests {
    /// One entry per endpoint: its method and path template, and whether its type is the authenticated one.
    /// The types are checked by the compiler through the two helpers below.
    static func entries() -> [(method: String, template: String, authenticated: Bool)] {
        func open<R>(_ endpoint: NonAuthenticatedEndpoint<R>, _ template: String) -> (String, String, Bool) {
            (endpoint.method.rawValue, template, false)
        }
        func closed<R>(_ endpoint: AuthenticatedEndpoint<R>, _ template: String) -> (String, String, Bool) {
            (endpoint.spec.method.rawValue, template, true)
        }
        let body = UpdateProfileRequest()
        let entries: [(String, String, Bool)] = [
            open(
                BazaarEndpoints.register(RegisterRequest(username: "a", password: "b", displayName: "c")),
                "/v1/auth/register"),
            open(BazaarEndpoints.login(LoginRequest(username: "a", password: "b")), "/v1/auth/login"),
            open(BazaarEndpoints.refresh("r"), "/v1/auth/refresh"),
            closed(BazaarEndpoints.logout, "/v1/auth/logout"),
            closed(BazaarEndpoints.me, "/v1/users/me"),
            closed(BazaarEndpoints.updateMe(body), "/v1/users/me"),
            closed(BazaarEndpoints.uploadPhoto(Data(), mediaType: .png), "/v1/users/me/photo"),
            open(BazaarEndpoints.user(id: "u"), "/v1/users/{id}"),
            open(BazaarEndpoints.userPhoto(id: "u"), "/v1/users/{id}/photo"),
            open(BazaarEndpoints.products(), "/v1/products"),
            open(BazaarEndpoints.product(id: "p"), "/v1/products/{id}"),
            closed(
                BazaarEndpoints.createProduct(
                    CreateProductRequest(title: "t", description: "d", priceCents: 1, currency: "EUR")), "/v1/products"),
            closed(
                BazaarEndpoints.addProductPhoto(productId: "p", image: Data(), mediaType: .jpeg),
                "/v1/products/{id}/photos"),
            closed(BazaarEndpoints.reorderProductPhotos(productId: "p", photoIds: []), "/v1/products/{id}/photos"),
            closed(BazaarEndpoints.updateProduct(id: "p", UpdateProductRequest(priceCents: 1)), "/v1/products/{id}"),
            closed(BazaarEndpoints.deleteProduct(id: "p"), "/v1/products/{id}"),
            closed(BazaarEndpoints.saveFavourite(productId: "p"), "/v1/products/{id}/favourite"),
            closed(BazaarEndpoints.removeFavourite(productId: "p"), "/v1/products/{id}/favourite"),
            closed(BazaarEndpoints.favourites(), "/v1/users/me/favourites"),
            closed(
                BazaarEndpoints.reviewProduct(id: "p", CreateReviewRequest(rating: 5, text: "")),
                "/v1/products/{id}/reviews"),
            open(BazaarEndpoints.reviews(userId: "u"), "/v1/users/{id}/reviews"),
            closed(
                BazaarEndpoints.changeProductStatus(id: "p", ChangeProductStatusRequest(status: .available)),
                "/v1/products/{id}/status"),
            open(BazaarEndpoints.productPhoto(productId: "p", photoId: "f"), "/v1/products/{id}/photos/{photo}"),
            closed(
                BazaarEndpoints.removeProductPhoto(productId: "p", photoId: "f"), "/v1/products/{id}/photos/{photo}"),
            closed(BazaarEndpoints.conversations(), "/v1/conversations"),
            closed(BazaarEndpoints.startConversation(StartConversationRequest(userId: "u")), "/v1/conversations"),
            closed(BazaarEndpoints.conversation(id: "c"), "/v1/conversations/{id}"),
            closed(BazaarEndpoints.messages(conversationID: "c"), "/v1/conversations/{id}/messages"),
            closed(
                BazaarEndpoints.sendMessage(conversationID: "c", body: "b", idempotencyKey: "k"),
                "/v1/conversations/{id}/messages"),
            closed(
                BazaarEndpoints.uploadAttachment(conversationID: "c", image: Data(), mediaType: .jpeg),
                "/v1/conversations/{id}/attachments"),
            closed(
                BazaarEndpoints.attachmentPhoto(conversationID: "c", attachmentId: "a"),
                "/v1/conversations/{id}/attachments/{attachment}"),
            closed(BazaarEndpoints.markRead(conversationID: "c", upTo: "m"), "/v1/conversations/{id}/read"),
            closed(
                BazaarEndpoints.makeOffer(conversationID: "c", amountCents: 1, idempotencyKey: "k"),
                "/v1/conversations/{id}/offers"),
            closed(BazaarEndpoints.offers(conversationID: "c"), "/v1/conversations/{id}/offers"),
            closed(BazaarEndpoints.acceptOffer(id: "o"), "/v1/offers/{id}/accept"),
            closed(BazaarEndpoints.declineOffer(id: "o"), "/v1/offers/{id}/decline"),
            closed(BazaarEndpoints.withdrawOffer(id: "o"), "/v1/offers/{id}/withdraw"),
            closed(BazaarEndpoints.notifications(), "/v1/notifications"),
            closed(
                BazaarEndpoints.markNotificationsRead(MarkNotificationsReadRequest(all: true)), "/v1/notifications/read"
            ),
            closed(BazaarEndpoints.blockUser(id: "u"), "/v1/users/{id}/block"),
            closed(BazaarEndpoints.unblockUser(id: "u"), "/v1/users/{id}/block"),
            closed(BazaarEndpoints.blocks(), "/v1/users/me/blocks"),
            closed(
                BazaarEndpoints.report(CreateReportRequest(subjectType: .user, subjectId: "u", reason: .spam)),
                "/v1/reports"),
            closed(BazaarEndpoints.myReports(), "/v1/reports"),
            closed(BazaarEndpoints.moderationReports(), "/v1/moderation/reports"),
            closed(BazaarEndpoints.moderationReport(id: "r"), "/v1/moderation/reports/{id}"),
            closed(
                BazaarEndpoints.resolveReport(id: "r", ResolveReportRequest(action: .dismiss)),
                "/v1/moderation/reports/{id}/resolve"),
            closed(
                BazaarEndpoints.changePassword(ChangePasswordRequest(currentPassword: "a", newPassword: "b")),
                "/v1/users/me/password"),
            closed(BazaarEndpoints.sessions, "/v1/users/me/sessions"),
            closed(BazaarEndpoints.endSession(id: "s"), "/v1/users/me/sessions/{id}"),
            closed(BazaarEndpoints.endOtherSessions, "/v1/users/me/sessions"),
            closed(BazaarEndpoints.exportAccount, "/v1/users/me/export"),
            closed(BazaarEndpoints.deleteAccount(password: "p"), "/v1/users/me"),
            open(BazaarEndpoints.health, "/health"),
            open(BazaarEndpoints.healthLive, "/health/live"),
            open(BazaarEndpoints.healthReady, "/health/ready"),
            open(BazaarEndpoints.metrics, "/metrics"),
        ]
        return entries.map { (method: $0.0, template: $0.1, authenticated: $0.2) }
    }

    @Test("every route of the API has an endpoint, in the scope the contract gives it")
    func everyRouteIsCoveredInItsScope() {
        let entries = Self.entries()
        for route in APIRoutes.all where route != APIRoutes.events {
            let match = entries.first { $0.method == route.method && $0.template == route.template }
            #expect(match != nil, "no endpoint for \(route)")
            #expect(match?.authenticated == route.requiresAuth, "\(route) is in the wrong scope")
        }
        #expect(entries.count == APIRoutes.all.count - 1)
    }

    @Test("paths fill in and escape their ids; a message send carries its Idempotency-Key")
    func pathsAndHeaders() {
        #expect(BazaarEndpoints.product(id: "a b/c").path == "/v1/products/a%20b%2Fc")
        let send = BazaarEndpoints.sendMessage(conversationID: "c1", body: "hi", idempotencyKey: "key-1")
        #expect(send.spec.path == "/v1/conversations/c1/messages")
        #expect(send.spec.headers["Idempotency-Key"] == "key-1")
        #expect(BazaarEndpoints.refresh("r").retryPolicy == .never, "a replayed refresh would be reuse")
    }
}
