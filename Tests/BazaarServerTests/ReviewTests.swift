import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// Reviews after a sale over HTTP, on both engines: who may write one, once, and the rating on the profile.
@Suite("Reviews after a sale")
struct ReviewTests {
    @Test(arguments: StorageKind.available)
    func bothPartiesReviewEachOtherOnceAndTheRatingShowsOnTheProfile(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let sale = try await Sale.make(client)
            let stranger = try await client.register("sid")
            expectError(
                try await client.review(sale.product, 5, "Early", as: sale.buyer), 409, code: "product_not_sold")
            expectError(try await client.review(sale.product, 5, "Hi", as: stranger), 404)
            try await sale.complete(client)
            expectError(try await client.review(sale.product, 5, "Hi", as: stranger), 404)
            for bad in [0, 6] {
                expectError(try await client.review(sale.product, bad, "", as: sale.buyer), 422, code: "invalid_field")
            }
            expectError(
                try await client.review(sale.product, 4, String(repeating: "x", count: 1001), as: sale.buyer), 422,
                code: "invalid_field")
            let byBuyer = try await client.review(sale.product, 4, "Smooth hand-over", as: sale.buyer)
            expectStatus(byBuyer, 201)
            let review = try byBuyer.decode(Review.self)
            #expect(review.authorId == sale.buyer.user.id && review.subjectId == sale.seller.user.id)
            expectError(
                try await client.review(sale.product, 5, "Again", as: sale.buyer), 409, code: "already_reviewed")
            expectStatus(try await client.review(sale.product, 5, "Paid at once", as: sale.seller), 201)
            let seller = try await client.get(APIRoutes.user.path(sale.seller.user.id)).decode(User.self)
            #expect(seller.ratingCount == 1 && seller.ratingAverage == 4)
            let buyer = try await client.get(APIRoutes.user.path(sale.buyer.user.id)).decode(User.self)
            #expect(buyer.ratingCount == 1 && buyer.ratingAverage == 5)
            let received = try await client.get(APIRoutes.userReviews.path(sale.seller.user.id))
            #expect(try received.decode(Page<Review>.self).items == [review])
            let told = try await client.get(APIRoutes.notifications.template, token: sale.seller.tokens.accessToken)
                .decode(Page<BazaarAPI.Notification>.self).items
            #expect(told.first?.type == NotificationType.reviewReceived && told.first?.productId == sale.product.id)
            #expect(try await client.get(APIRoutes.user.path(stranger.user.id)).decode(User.self).ratingAverage == nil)
            expectError(try await client.get(APIRoutes.userReviews.path("00000000-0000-4000-8000-000000000000")), 404)
        }
    }

    @Test(arguments: StorageKind.available)
    func aReviewSentTwiceAtOnceIsStoredOnce(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let sale = try await Sale.make(client)
            try await sale.complete(client)
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await client.review(sale.product, 3, "Fine", as: sale.buyer).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(answers.sorted() == [201, 409, 409, 409, 409, 409])
            let seller = try await client.get(APIRoutes.user.path(sale.seller.user.id)).decode(User.self)
            #expect(seller.ratingCount == 1)
        }
    }

    /// A seller, a buyer in a conversation about the seller's product, and the product.
    struct Sale {
        let seller: AuthResponse
        let buyer: AuthResponse
        let product: Product

        static func make(_ client: BazaarTestClient) async throws -> Sale {
            let seller = try await client.register("sam")
            let buyer = try await client.register("bea")
            let product = try await client.createProduct("Desk", token: seller.tokens.accessToken)
            _ = try await client.startConversation(
                with: seller.user.id, productId: product.id, token: buyer.tokens.accessToken)
            return Sale(seller: seller, buyer: buyer, product: product)
        }

        /// Marks the product sold to the buyer.
        func complete(_ client: BazaarTestClient) async throws {
            let sold = try await client.send(
                .PUT, APIRoutes.changeProductStatus.path(product.id),
                json: ChangeProductStatusRequest(status: .sold, buyerId: buyer.user.id),
                token: seller.tokens.accessToken)
            try #require(sold.status == 200)
        }
    }
}

extension BazaarTestClient {
    /// Reviews the sale of `product` as `user`.
    fileprivate func review(_ product: Product, _ rating: Int, _ text: String, as user: AuthResponse) async throws
        -> TestResponse
    {
        try await post(
            APIRoutes.reviewProduct.path(product.id), CreateReviewRequest(rating: rating, text: text),
            token: user.tokens.accessToken)
    }
}
