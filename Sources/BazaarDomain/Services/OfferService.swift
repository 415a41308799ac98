import BazaarAPI
import BazaarStorage
import Foundation

/// The rules of offers, written once for every storage engine.
///
/// Only the member of a conversation who is not the product's seller makes an offer, only while
/// the product is available (`product_unavailable`), for a positive amount in the product's
/// currency; the buyer's earlier open offer on the product is withdrawn by it. The seller accepts
/// or declines an open offer, and the buyer withdraws it; a decided offer stays decided
/// (`offer_closed`), and to anyone else an offer does not exist (404). Accepting reserves the
/// product for the buyer and declines every other open offer on it, in one transaction.
///
/// Every write on a product's deal expects the product's version and moves it on, so two of them
/// decided at once (two accepts of different offers, an offer and a sale, on one replica or
/// two) cannot both apply: the second is decided again on what the first left. Each offer and
/// each decision is also a line of its conversation's timeline (`kind: "offer"`), told live to
/// both members with `offer.updated`; the other party is notified.
public struct OfferService: Sendable {
    let store: any BazaarStore
    let events: any LiveEventBus
    let quotas: QuotaLimiter
    let clock: DomainClock
    private var timeline: OfferTimeline { OfferTimeline(clock: clock) }
    private var blocks: BlockRule { BlockRule(store: store) }

    /// A service over `store`, announcing on `events`, charging `quotas`, on `clock`.
    package init(store: any BazaarStore, events: any LiveEventBus, quotas: QuotaLimiter, clock: DomainClock) {
        self.store = store
        self.events = events
        self.quotas = quotas
        self.clock = clock
    }

    /// What making an offer answered.
    public enum Made: Sendable, Equatable {
        /// A new offer.
        case created(Offer)
        /// The offer the same key made before.
        case replayed(Offer)
    }

    /// A decision on an offer.
    public enum Decision: Sendable {
        /// The seller accepts: the product is reserved for the buyer.
        case accept
        /// The seller declines.
        case decline
        /// The buyer takes it back.
        case withdraw
    }

    /// Makes an offer of `amountCents` in the conversation, at most once per idempotency key.
    public func make(
        amountCents: Int, idempotencyKey: String?, in conversationId: String, by callerId: String
    ) async throws -> Made {
        let key = try Validation.idempotencyKey(idempotencyKey)
        guard amountCents > 0, InputRules.priceCents.contains(amountCents) else {
            throw DomainError.invalidField("amountCents", "must be a positive integer of at most 1000000000000")
        }
        if let replayed = try await replay(key: key, owner: callerId, conversationId: conversationId, amountCents) {
            return .replayed(replayed)
        }
        try quotas.charge(.sendMessage, by: callerId)
        for _ in 0..<ListingService.attempts {
            guard let conversation = try await store.conversation(id: conversationId, viewerId: callerId) else {
                throw DomainError.notFound("The conversation")
            }
            guard !conversation.blocked else {
                quotas.refund(.sendMessage, by: callerId)
                throw DomainError.blocked
            }
            guard let productId = conversation.product?.id, let record = try await store.productRecord(id: productId)
            else { throw Self.unavailable }
            let product = record.product
            guard product.sellerId != callerId else {
                throw DomainError.unprocessable(
                    code: "own_product", message: "You cannot make an offer on your own product.")
            }
            guard product.status == .available else { throw Self.unavailable }
            let now = clock.now()
            let offer = Offer(
                id: clock.newId(), productId: productId, conversationId: conversationId, buyerId: callerId,
                amountCents: amountCents, currency: product.currency, status: .open, createdAt: now, updatedAt: now)
            let members = [callerId, product.sellerId]
            let line = Message(
                id: clock.newId(), conversationId: conversationId, senderId: callerId,
                body: "Offered \(offer.amountText)", createdAt: now, kind: .offer, offerId: offer.id)
            var plan = WritePlan([
                .expectProduct(id: productId, version: record.version),
                // A block made since the conversation was read still refuses the offer.
                .refuseIfBlocked(callerId, product.sellerId),
                .claim(IdempotencyClaim(owner: callerId, key: key, resultId: line.id)),
                .bumpProduct(id: productId, version: record.version + 1),
            ])
            // The buyer's earlier open offer is replaced by this one.
            for var earlier in try await store.openOffers(productId: productId) where earlier.buyerId == callerId {
                earlier.status = .withdrawn
                earlier.updatedAt = now
                plan.append(.saveOffer(earlier))
                plan.append(.publish(.offerUpdated(earlier), to: [callerId, product.sellerId]))
            }
            plan.append(.saveOffer(offer))
            timeline.add(line, telling: product.sellerId, NotificationType.offerReceived, members: members, to: &plan)
            plan.append(.publish(.offerUpdated(offer), to: members))
            switch try await store.apply(plan, now: now) {
            case .applied:
                return .created(offer)
            case .claimTaken:
                quotas.refund(.sendMessage, by: callerId)
                guard
                    let replayed = try await replay(
                        key: key, owner: callerId, conversationId: conversationId, amountCents)
                else { throw StoreError.corrupt("a taken idempotency key names no offer") }
                return .replayed(replayed)
            case .stale:
                continue
            case .blocked:
                quotas.refund(.sendMessage, by: callerId)
                throw DomainError.blocked
            }
        }
        throw DomainError.busy("The product is changing too often to make an offer now.", retryAfter: 1)
    }

    /// Decides an open offer: `callerId` must be its seller (accept, decline) or its buyer (withdraw).
    public func decide(_ decision: Decision, offerId: String, by callerId: String) async throws -> Offer {
        try quotas.charge(.edit, by: callerId)
        for _ in 0..<ListingService.attempts {
            guard var offer = try await store.offer(id: offerId),
                let record = try await store.productRecord(id: offer.productId)
            else { throw DomainError.notFound("The offer") }
            let sellerId = record.product.sellerId
            let decider = decision == .withdraw ? offer.buyerId : sellerId
            guard callerId == decider else { throw DomainError.notFound("The offer") }
            // An accept that lost to another accept finds its own offer declined by the winner:
            // the answer names the reason, the product. An offer accepted already is closed.
            if decision == .accept, offer.status != .accepted, record.product.status != .available {
                throw Self.unavailable
            }
            guard offer.status == .open else {
                throw DomainError.conflict(code: "offer_closed", message: "The offer was decided already.")
            }
            let now = clock.now()
            var plan = WritePlan([.expectProduct(id: offer.productId, version: record.version)])
            offer.updatedAt = now
            switch decision {
            case .accept:
                // A deal is not made across a block, decided in the accept's own transaction; a
                // decline or a withdrawal still closes the offer, told to no one across it.
                plan.append(.refuseIfBlocked(sellerId, offer.buyerId))
                var reserved = record
                reserved.product.status = .reserved
                reserved.product.updatedAt = now
                reserved.buyerId = offer.buyerId
                reserved.version = record.version + 1
                plan.append(.saveProduct(reserved))
                offer.status = .accepted
                timeline.decline(
                    try await store.openOffers(productId: offer.productId), except: offer.id, seller: sellerId,
                    at: now, to: &plan)
                timeline.record(
                    offer, "Accepted the offer of", by: sellerId, telling: offer.buyerId,
                    NotificationType.offerAccepted, seller: sellerId, to: &plan)
            case .decline:
                plan.append(.bumpProduct(id: offer.productId, version: record.version + 1))
                offer.status = .declined
                timeline.record(
                    offer, "Declined the offer of", by: sellerId, telling: offer.buyerId,
                    NotificationType.offerDeclined, seller: sellerId, to: &plan)
            case .withdraw:
                plan.append(.bumpProduct(id: offer.productId, version: record.version + 1))
                offer.status = .withdrawn
                timeline.record(
                    offer, "Withdrew the offer of", by: offer.buyerId, telling: nil, nil, seller: sellerId, to: &plan)
            }
            switch try await store.apply(try await blocks.shielding(plan, actor: callerId), now: now) {
            case .applied:
                if decision == .accept { await events.productsChanged() }
                return offer
            case .stale:
                continue
            case .blocked:
                throw DomainError.blocked
            case .claimTaken:
                throw StoreError.corrupt("a decision on an offer claims no key")
            }
        }
        throw DomainError.busy("The product is changing too often to decide the offer now.", retryAfter: 1)
    }

    /// A page of a conversation's offers, newest first, for one of its members.
    public func offers(in conversationId: String, viewerId: String, before position: Int64?, limit: Int)
        async throws -> Slice<Offer>
    {
        guard try await store.conversationMembers(id: conversationId)?.other(than: viewerId) != nil else {
            throw DomainError.notFound("The conversation")
        }
        return try await store.offers(conversationId: conversationId, before: position, limit: limit)
    }

    private static let unavailable = DomainError.conflict(
        code: "product_unavailable", message: "The product is not available: it is reserved, sold or gone.")

    /// The offer an earlier request with `key` made, when it was this same offer; `nil` when the
    /// key is unused. A key used for anything else is a conflict.
    private func replay(key: String, owner: String, conversationId: String, _ amountCents: Int) async throws -> Offer? {
        guard let lineId = try await store.idempotencyResult(owner: owner, key: key) else { return nil }
        guard let line = try await store.message(id: lineId), let offerId = line.offerId,
            let offer = try await store.offer(id: offerId), offer.conversationId == conversationId,
            offer.amountCents == amountCents
        else {
            throw DomainError.conflict(
                code: "idempotency_key_reused", message: "This Idempotency-Key was already used for something else.")
        }
        return offer
    }
}
