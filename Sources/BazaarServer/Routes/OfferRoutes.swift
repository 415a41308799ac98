import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import HTTPTypes
import Hummingbird

/// Offers: made in a conversation (`POST /v1/conversations/{id}/offers`, with `Idempotency-Key`),
/// listed per conversation, and accepted, declined or withdrawn (`POST /v1/offers/{id}/…`). The
/// rules are ``OfferService``'s.
struct OfferRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.makeOffer) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let conversationId = try context.pathId("The conversation")
            let key = request.headers.value(named: APIHeaders.idempotencyKey)
            let body = try await RequestBody.decode(CreateOfferRequest.self, from: request)
            switch try await deps.services.offers.make(
                amountCents: body.amountCents, idempotencyKey: key, in: conversationId, by: caller.userId)
            {
            case .created(let offer):
                return try JSONResponse.make(offer, status: .created)
            case .replayed(let offer):
                var headers = HTTPFields()
                if let name = HTTPField.Name(APIHeaders.idempotentReplayed) { headers[name] = "true" }
                return try JSONResponse.make(offer, status: .created, headers: headers)
            }
        }
        router.on(APIRoutes.conversationOffers) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let limit = try QueryParameters.limit(request, default: 50)
            let position = try Cursor.decodeSeq(QueryParameters.cursor(request, "cursor"), kind: .offers)
            let slice = try await deps.services.offers.offers(
                in: try context.pathId("The conversation"), viewerId: caller.userId, before: position, limit: limit)
            return try JSONResponse.make(
                Page(items: slice.items, nextCursor: slice.next.map { Cursor.encode(.offers, seq: $0) }))
        }
        for (route, decision) in [
            (APIRoutes.acceptOffer, OfferService.Decision.accept), (APIRoutes.declineOffer, .decline),
            (APIRoutes.withdrawOffer, .withdraw),
        ] {
            router.on(route) { request, context in
                let caller = try await deps.authenticator.authenticate(request)
                let offerId = try context.pathId("The offer")
                return try JSONResponse.make(
                    try await deps.services.offers.decide(decision, offerId: offerId, by: caller.userId))
            }
        }
    }
}
