import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// Offers over HTTP, on both engines: who may make and decide them, what each decision does to
/// the product, the other offers and the timeline, and the races the database decides.
@Suite("Offers, inside the conversation")
struct OfferTests {
    /// A seller with a product, and two buyers each in a conversation about it.
    struct Deal {
        let seller: AuthResponse
        let buyer: AuthResponse
        let rival: AuthResponse
        let product: Product
        let conversation: Conversation
        let rivalConversation: Conversation

        /// A deal with users and a product named for `round`, so rounds share one server.
        static func make(_ client: BazaarTestClient, round: Int = 0, price: Int = 15_000) async throws -> Deal {
            let seller = try await client.register("sam\(round)")
            let buyer = try await client.register("bea\(round)")
            let rival = try await client.register("rex\(round)")
            let product = try await client.createProduct(
                "Armchair \(round)", token: seller.tokens.accessToken, priceCents: price)
            return Deal(
                seller: seller, buyer: buyer, rival: rival, product: product,
                conversation: try await client.startConversation(
                    with: seller.user.id, productId: product.id, token: buyer.tokens.accessToken),
                rivalConversation: try await client.startConversation(
                    with: seller.user.id, productId: product.id, token: rival.tokens.accessToken))
        }
    }

    @Test(arguments: StorageKind.available)
    func anOfferIsALineOfTheTimelineAndTheSellerIsTold(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let deal = try await Deal.make(client)
            let made = try await client.offer(12_000, in: deal.conversation, by: deal.buyer, key: "k1")
            expectStatus(made, 201)
            let offer = try made.decode(Offer.self)
            #expect(offer.status == .open && offer.amountCents == 12_000 && offer.currency == "EUR")
            #expect(offer.buyerId == deal.buyer.user.id && offer.productId == deal.product.id)
            // The same key again: the same offer, not a second one.
            let again = try await client.offer(12_000, in: deal.conversation, by: deal.buyer, key: "k1")
            expectStatus(again, 201)
            #expect(try again.decode(Offer.self) == offer)
            #expect(again.header(APIHeaders.idempotentReplayed) == "true")
            expectError(
                try await client.offer(9_000, in: deal.conversation, by: deal.buyer, key: "k1"), 409,
                code: "idempotency_key_reused")
            let lines = try await client.timeline(deal.conversation, as: deal.seller)
            #expect(lines.map(\.body) == ["Offered 120.00 EUR"])
            #expect(lines.first?.kind == .offer && lines.first?.offerId == offer.id)
            let notifications = try await client.get(
                APIRoutes.notifications.template, token: deal.seller.tokens.accessToken
            )
            .decode(Page<BazaarAPI.Notification>.self).items
            #expect(notifications.map(\.type) == [NotificationType.offerReceived])
            let listed = try await client.get(
                APIRoutes.conversationOffers.path(deal.conversation.id), token: deal.seller.tokens.accessToken)
            #expect(try listed.decode(Page<Offer>.self).items == [offer])
        }
    }

    @Test(arguments: StorageKind.available)
    func onlyTheBuyerOffersOnlyWhileAvailableAndAPositiveAmount(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let deal = try await Deal.make(client)
            let stranger = try await client.register("sid")
            expectError(
                try await client.offer(1, in: deal.conversation, by: deal.seller, key: "s"), 422, code: "own_product")
            expectError(try await client.offer(1, in: deal.conversation, by: stranger, key: "x"), 404)
            for amount in [0, -5] {
                expectError(
                    try await client.offer(amount, in: deal.conversation, by: deal.buyer, key: "a\(amount)"), 422,
                    code: "invalid_field")
            }
            expectError(
                try await client.post(
                    APIRoutes.makeOffer.path(deal.conversation.id), CreateOfferRequest(amountCents: 5),
                    token: deal.buyer.tokens.accessToken), 400)
            let general = try await client.startConversation(
                with: deal.seller.user.id, token: stranger.tokens.accessToken)
            expectError(
                try await client.offer(5, in: general, by: stranger, key: "g"), 409, code: "product_unavailable")
            _ = try await client.setStatus(deal.product, .reserved, buyer: deal.rival, by: deal.seller)
            expectError(
                try await client.offer(5, in: deal.conversation, by: deal.buyer, key: "r"), 409,
                code: "product_unavailable")
        }
    }

    @Test(arguments: StorageKind.available)
    func acceptingReservesTheProductAndDeclinesEveryOtherOpenOffer(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let deal = try await Deal.make(client)
            let first = try await client.offer(10_000, in: deal.conversation, by: deal.buyer, key: "b1").decode(
                Offer.self)
            // A newer offer by the same buyer replaces the first.
            let mine = try await client.offer(11_000, in: deal.conversation, by: deal.buyer, key: "b2").decode(
                Offer.self)
            let theirs = try await client.offer(11_500, in: deal.rivalConversation, by: deal.rival, key: "r1")
                .decode(Offer.self)
            expectError(try await client.decide(APIRoutes.acceptOffer, mine, by: deal.buyer), 404)
            expectError(try await client.decide(APIRoutes.acceptOffer, mine, by: deal.rival), 404)
            let accepted = try await client.decide(APIRoutes.acceptOffer, mine, by: deal.seller)
            expectStatus(accepted, 200)
            #expect(try accepted.decode(Offer.self).status == .accepted)
            let product = try await client.get(APIRoutes.product.path(deal.product.id)).decode(Product.self)
            #expect(product.status == .reserved)
            let offers = try await client.get(
                APIRoutes.conversationOffers.path(deal.conversation.id), token: deal.buyer.tokens.accessToken
            ).decode(Page<Offer>.self).items
            #expect(offers.map(\.id) == [mine.id, first.id])
            #expect(offers.map(\.status) == [.accepted, .withdrawn])
            let rivals = try await client.get(
                APIRoutes.conversationOffers.path(deal.rivalConversation.id), token: deal.rival.tokens.accessToken
            ).decode(Page<Offer>.self).items
            #expect(rivals.map(\.id) == [theirs.id] && rivals.first?.status == .declined)
            #expect(
                try await client.timeline(deal.conversation, as: deal.buyer).map(\.body) == [
                    "Offered 100.00 EUR", "Offered 110.00 EUR", "Accepted the offer of 110.00 EUR",
                ])
            #expect(
                try await client.timeline(deal.rivalConversation, as: deal.rival).map(\.body) == [
                    "Offered 115.00 EUR", "Declined the offer of 115.00 EUR",
                ])
            let told = try await client.get(APIRoutes.notifications.template, token: deal.rival.tokens.accessToken)
                .decode(Page<BazaarAPI.Notification>.self).items.map(\.type)
            #expect(told == [NotificationType.offerDeclined])
            // Decided offers stay decided.
            for (route, who) in [(APIRoutes.acceptOffer, deal.seller), (APIRoutes.declineOffer, deal.seller)] {
                expectError(try await client.decide(route, mine, by: who), 409, code: "offer_closed")
            }
            expectError(
                try await client.decide(APIRoutes.withdrawOffer, theirs, by: deal.rival), 409, code: "offer_closed")
        }
    }

    @Test(arguments: StorageKind.available)
    func theSellerDeclinesAndTheBuyerWithdrawsEachOnlyTheirOwnSide(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let deal = try await Deal.make(client)
            let offer = try await client.offer(9_000, in: deal.conversation, by: deal.buyer, key: "1").decode(
                Offer.self)
            expectError(try await client.decide(APIRoutes.withdrawOffer, offer, by: deal.seller), 404)
            expectError(try await client.decide(APIRoutes.declineOffer, offer, by: deal.buyer), 404)
            let declined = try await client.decide(APIRoutes.declineOffer, offer, by: deal.seller)
            #expect(try declined.decode(Offer.self).status == .declined)
            let second = try await client.offer(9_500, in: deal.conversation, by: deal.buyer, key: "2").decode(
                Offer.self)
            #expect(
                try await client.decide(APIRoutes.withdrawOffer, second, by: deal.buyer).decode(Offer.self).status
                    == .withdrawn)
            #expect(
                try await client.timeline(deal.conversation, as: deal.seller).map(\.body) == [
                    "Offered 90.00 EUR", "Declined the offer of 90.00 EUR", "Offered 95.00 EUR",
                    "Withdrew the offer of 95.00 EUR",
                ])
            #expect(
                try await client.get(APIRoutes.product.path(deal.product.id)).decode(Product.self).status == .available)
            expectError(
                try await client.get(
                    APIRoutes.conversationOffers.path(deal.conversation.id), token: deal.rival.tokens.accessToken),
                404)
        }
    }

    @Test(arguments: StorageKind.available)
    func twoAcceptsAtOnceOneWins(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            for round in 0..<10 {
                let deal = try await Deal.make(client, round: round)
                let mine = try await client.offer(1_000, in: deal.conversation, by: deal.buyer, key: "m").decode(
                    Offer.self)
                let theirs = try await client.offer(1_100, in: deal.rivalConversation, by: deal.rival, key: "t")
                    .decode(Offer.self)
                async let first = client.decide(APIRoutes.acceptOffer, mine, by: deal.seller)
                async let second = client.decide(APIRoutes.acceptOffer, theirs, by: deal.seller)
                let statuses = [try await first.status, try await second.status].sorted()
                #expect(statuses == [200, 409], "round \(round)")
                let product = try await client.get(APIRoutes.product.path(deal.product.id)).decode(Product.self)
                #expect(product.status == .reserved)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func reservingSellingOrTakingDownAProductDeclinesItsOpenOffersInTheirConversations(storage: StorageKind)
        async throws
    {
        try await BazaarTestHarness.withServer(on: storage) { client in
            for (round, change) in ["reserved", "sold", "deleted"].enumerated() {
                let deal = try await Deal.make(client, round: round)
                let first = try await client.offer(9_000, in: deal.conversation, by: deal.buyer, key: "a")
                    .decode(Offer.self)
                let second = try await client.offer(9_500, in: deal.rivalConversation, by: deal.rival, key: "b")
                    .decode(Offer.self)
                switch change {
                case "deleted":
                    let gone = try await client.send(
                        .DELETE, APIRoutes.deleteProduct.path(deal.product.id), token: deal.seller.tokens.accessToken)
                    #expect(gone.status == 204)
                default:
                    let status = ProductStatus(rawValue: change) ?? .sold
                    #expect(
                        try await client.setStatus(deal.product, status, buyer: deal.buyer, by: deal.seller).status
                            == 200)
                }
                for (offer, user, conversation) in [
                    (first, deal.buyer, deal.conversation), (second, deal.rival, deal.rivalConversation),
                ] {
                    let offers = try await client.get(
                        APIRoutes.conversationOffers.path(conversation.id), token: user.tokens.accessToken
                    ).decode(Page<Offer>.self).items
                    #expect(offers.map(\.id) == [offer.id], "\(change)")
                    #expect(offers.map(\.status) == [.declined], "\(change)")
                    let lines = try await client.timeline(conversation, as: user).map(\.body)
                    #expect(lines.last == "Declined the offer of \(offer.amountText)", "\(change)")
                    let notices = try await client.get(APIRoutes.notifications.template, token: user.tokens.accessToken)
                        .decode(Page<BazaarAPI.Notification>.self).items
                    #expect(notices.contains { $0.type == NotificationType.offerDeclined }, "\(change)")
                    // Closed: taking it back is refused (and of a product taken down, it is gone).
                    let withdraw = try await client.decide(APIRoutes.withdrawOffer, offer, by: user)
                    #expect(withdraw.status == (change == "deleted" ? 404 : 409), "\(change)")
                }
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func anOfferRacingASaleNeverLandsOnASoldProduct(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            for round in 0..<10 {
                let deal = try await Deal.make(client, round: round)
                async let offer = client.offer(500, in: deal.conversation, by: deal.buyer, key: "o")
                async let sale = client.setStatus(deal.product, .sold, buyer: deal.rival, by: deal.seller)
                let (offerStatus, saleStatus) = (try await offer.status, try await sale.status)
                #expect(saleStatus == 200)
                #expect(offerStatus == 201 || offerStatus == 409, "round \(round)")
                let offers = try await client.get(
                    APIRoutes.conversationOffers.path(deal.conversation.id), token: deal.buyer.tokens.accessToken
                ).decode(Page<Offer>.self).items
                // An offer that got in did so before the sale, which saw it and declined it; none
                // came after, and none is left open on a sold product.
                #expect((offerStatus == 201) == (offers.count == 1), "round \(round)")
                #expect(offers.allSatisfy { $0.status == .declined }, "round \(round)")
            }
        }
    }
}

extension BazaarTestClient {
    /// Makes an offer of `amount` in `conversation` as `user`, with idempotency key `key`.
    func offer(_ amount: Int, in conversation: Conversation, by user: AuthResponse, key: String) async throws
        -> TestResponse
    {
        try await post(
            APIRoutes.makeOffer.path(conversation.id), CreateOfferRequest(amountCents: amount),
            token: user.tokens.accessToken, headers: [(APIHeaders.idempotencyKey, key)])
    }

    /// Accepts, declines or withdraws `offer` (by `route`) as `user`.
    func decide(_ route: APIRoute, _ offer: Offer, by user: AuthResponse) async throws -> TestResponse {
        try await post(route.path(offer.id), token: user.tokens.accessToken)
    }

    /// Sets `product`'s status as `user`, for `buyer`.
    func setStatus(_ product: Product, _ status: ProductStatus, buyer: AuthResponse?, by user: AuthResponse)
        async throws -> TestResponse
    {
        try await changeStatus(of: product.id, to: status, buyerId: buyer?.user.id, token: user.tokens.accessToken)
    }

    /// The conversation's timeline as `user` reads it, oldest first.
    func timeline(_ conversation: Conversation, as user: AuthResponse) async throws -> [Message] {
        try await get(APIRoutes.messages.path(conversation.id), token: user.tokens.accessToken)
            .decode(Page<Message>.self).items.reversed()
    }
}
