import BazaarAPI
import Foundation
import TestSupport
import Testing

/// The deal's races across two real `bazaar-server` processes on one PostgreSQL: the database
/// decides them, whichever replica each request reaches.
@Suite(
    "Offers across replicas", .serialized,
    .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct OfferReplicaTests {
    @Test func twoAcceptsOfDifferentOffersOnTwoReplicasAtOnceExactlyOneWins() async throws {
        try await PostgresTestDatabase.with { database in
            // Sixty accounts from one address: the registration quota is off for this run.
            try await ReplicaPair.run(on: database, extraArguments: ["--no-quotas"]) { replicas in
                for round in 0..<20 {
                    let deal = try await OfferTests.Deal.make(replicas.clientA, round: round)
                    let mine = try await replicas.clientA.offer(1_000, in: deal.conversation, by: deal.buyer, key: "m")
                        .decode(Offer.self)
                    let theirs = try await replicas.clientB.offer(
                        1_100, in: deal.rivalConversation, by: deal.rival, key: "t"
                    ).decode(Offer.self)
                    async let onA = replicas.clientA.decide(APIRoutes.acceptOffer, mine, by: deal.seller)
                    async let onB = replicas.clientB.decide(APIRoutes.acceptOffer, theirs, by: deal.seller)
                    let (a, b) = (try await onA, try await onB)
                    #expect([a.status, b.status].sorted() == [200, 409], "round \(round): \(a.text) \(b.text)")
                    let loser = a.status == 409 ? a : b
                    #expect(loser.text.contains("product_unavailable"), "round \(round)")
                    // Exactly one offer accepted, the other declined by it, on either replica's reading.
                    let statuses = try await [
                        replicas.clientB.get(
                            APIRoutes.conversationOffers.path(deal.conversation.id),
                            token: deal.buyer.tokens.accessToken),
                        replicas.clientA.get(
                            APIRoutes.conversationOffers.path(deal.rivalConversation.id),
                            token: deal.rival.tokens.accessToken),
                    ].flatMap { try $0.decode(Page<Offer>.self).items.map(\.status) }
                    #expect(statuses.sorted { $0.rawValue < $1.rawValue } == [.accepted, .declined], "round \(round)")
                    let product = try await replicas.clientB.get(APIRoutes.product.path(deal.product.id))
                        .decode(Product.self)
                    #expect(product.status == .reserved, "round \(round)")
                }
            }
        }
    }
}
