import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// Blocking over HTTP, on both engines: what a block prevents in both directions, what stays
/// readable, and that nothing live passes across it.
@Suite("Blocking")
struct BlockingTests {
    @Test(arguments: StorageKind.available)
    func blockingIsIdempotentListedAndUndone(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let token = ada.tokens.accessToken
            for _ in 0..<2 {
                expectStatus(try await client.send(.PUT, APIRoutes.blockUser.path(bob.user.id), token: token), 204)
            }
            let blocked = try await client.get(APIRoutes.blocks.template, token: token).decode(Page<User>.self)
            #expect(blocked.items.map(\.id) == [bob.user.id] && blocked.items.first?.role == nil)
            expectError(
                try await client.send(.PUT, APIRoutes.blockUser.path(ada.user.id), token: token), 422,
                code: "invalid_field")
            expectError(
                try await client.send(.PUT, APIRoutes.blockUser.path(UUID().uuidString.lowercased()), token: token),
                404)
            expectError(try await client.send(.PUT, APIRoutes.blockUser.path("bob"), token: token), 404)
            expectError(try await client.send(.PUT, APIRoutes.blockUser.path(bob.user.id)), 401)
            // Bob learns nothing of it from his own list.
            #expect(
                try await client.get(APIRoutes.blocks.template, token: bob.tokens.accessToken)
                    .decode(Page<User>.self).items.isEmpty)
            for _ in 0..<2 {
                expectStatus(
                    try await client.send(.DELETE, APIRoutes.unblockUser.path(bob.user.id), token: token), 204)
            }
            #expect(try await client.get(APIRoutes.blocks.template, token: token).decode(Page<User>.self).items.isEmpty)
        }
    }

    @Test(
        "while either has blocked the other, neither starts a conversation, sends or offers; the history stays readable",
        arguments: StorageKind.available)
    func aBlockHoldsBothWaysAndKeepsTheHistory(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let deal = try await OfferTests.Deal.make(client)
            let (seller, buyer) = (deal.seller, deal.buyer)
            let said = try await client.sendMessage(
                "Is it still there?", in: deal.conversation.id, token: buyer.tokens.accessToken
            ).decode(Message.self)
            let open = try await client.offer(10_000, in: deal.conversation, by: buyer, key: "before")
                .decode(Offer.self)
            expectStatus(
                try await client.send(
                    .PUT, APIRoutes.blockUser.path(buyer.user.id), token: seller.tokens.accessToken), 204)

            for (user, other) in [(buyer, seller), (seller, buyer)] {
                expectError(
                    try await client.sendMessage("hello?", in: deal.conversation.id, token: user.tokens.accessToken),
                    403, code: "blocked")
                let start = try await client.post(
                    APIRoutes.startConversation.template, StartConversationRequest(userId: other.user.id),
                    token: user.tokens.accessToken)
                expectError(start, 403, code: "blocked")
                let conversation = try await client.get(
                    APIRoutes.conversation.path(deal.conversation.id), token: user.tokens.accessToken
                ).decode(Conversation.self)
                #expect(conversation.blocked)
                #expect(try await client.timeline(deal.conversation, as: user).first == said)
            }
            expectError(
                try await client.offer(9_000, in: deal.conversation, by: buyer, key: "after"), 403, code: "blocked")
            expectError(try await client.decide(APIRoutes.acceptOffer, open, by: seller), 403, code: "blocked")
            // Closing an offer is not a deal: the buyer may still take theirs back.
            expectStatus(try await client.decide(APIRoutes.withdrawOffer, open, by: buyer), 200)
            // The rival, whom nobody blocked, goes on as before.
            expectStatus(
                try await client.sendMessage(
                    "Mine?", in: deal.rivalConversation.id, token: deal.rival.tokens.accessToken),
                201)

            expectStatus(
                try await client.send(
                    .DELETE, APIRoutes.unblockUser.path(buyer.user.id), token: seller.tokens.accessToken), 204)
            expectStatus(
                try await client.sendMessage("Sorry!", in: deal.conversation.id, token: buyer.tokens.accessToken), 201)
            let after = try await client.get(
                APIRoutes.conversation.path(deal.conversation.id), token: buyer.tokens.accessToken
            ).decode(Conversation.self)
            #expect(!after.blocked)
        }
    }

    @Test(
        "no live event crosses a block: a read marker, an offer declined by a sale, a saved product's price drop",
        arguments: StorageKind.available)
    func noLiveEventCrossesABlock(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let deal = try await OfferTests.Deal.make(client)
            let (seller, buyer) = (deal.seller, deal.buyer)
            let message = try await client.sendMessage(
                "Still for sale?", in: deal.conversation.id, token: buyer.tokens.accessToken
            ).decode(Message.self)
            _ = try await client.offer(10_000, in: deal.conversation, by: buyer, key: "o")
            expectStatus(
                try await client.send(
                    .PUT, APIRoutes.saveFavourite.path(deal.product.id), token: buyer.tokens.accessToken), 204)
            let socket = try await EventSocket.connect(
                baseURL: client.baseURL, credential: .header(buyer.tokens.accessToken))
            defer { Task { await socket.close() } }
            // Events of the writes above may still be on their way (NOTIFY on PostgreSQL): the
            // seller's marker, heard, says everything before it has been.
            let marker = try await client.sendMessage(
                "Yes, it is.", in: deal.conversation.id, token: seller.tokens.accessToken
            ).decode(Message.self)
            let markerHeard = await socket.first(within: .seconds(5)) { event in
                guard case .notificationCreated(let notification) = event else { return false }
                return notification.messageId == marker.id  // the marker's last event
            }
            #expect(markerHeard != nil)
            expectStatus(
                try await client.send(.PUT, APIRoutes.blockUser.path(seller.user.id), token: buyer.tokens.accessToken),
                204)

            // The seller reads, drops the price and sells to the rival: each would tell the buyer.
            expectStatus(
                try await client.post(
                    APIRoutes.markRead.path(deal.conversation.id), MarkReadRequest(upTo: message.id),
                    token: seller.tokens.accessToken), 204)
            expectStatus(
                try await client.send(
                    .PATCH, APIRoutes.updateProduct.path(deal.product.id),
                    json: UpdateProductRequest(priceCents: 9_000),
                    token: seller.tokens.accessToken), 200)
            expectStatus(try await client.setStatus(deal.product, .sold, buyer: deal.rival, by: seller), 200)
            // Then someone unblocked writes to the buyer: that is the next thing the buyer hears.
            let carol = try await client.register("carol")
            let other = try await client.startConversation(with: buyer.user.id, token: carol.tokens.accessToken)
            let hello = try await client.sendMessage("Hi!", in: other.id, token: carol.tokens.accessToken)
                .decode(Message.self)
            let heard = await socket.next(timeout: .seconds(5))
            #expect(heard == .messageCreated(hello), "heard instead: \(String(describing: heard))")
            // What happened is still there to read: the offer was declined in the conversation.
            let lines = try await client.timeline(deal.conversation, as: buyer)
            #expect(lines.last?.body == "Declined the offer of 100.00 EUR")
            let notifications = try await client.get(APIRoutes.notifications.template, token: buyer.tokens.accessToken)
                .decode(Page<BazaarAPI.Notification>.self).items
            // Carol's message, and the seller's marker from before the block: nothing after it.
            #expect(
                notifications.map(\.messageId) == [hello.id, marker.id],
                "nothing from the seller: \(notifications.map(\.type))")
        }
    }
}
