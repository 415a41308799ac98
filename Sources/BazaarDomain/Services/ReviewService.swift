import BazaarAPI
import BazaarStorage
import Foundation

/// The rules of reviews after a sale, written once for every storage engine.
///
/// Only the two parties of a sale review it, each the other, once (`already_reviewed`); before
/// the sale it is too early (`product_not_sold`) for the seller and whoever talks to them about
/// the product, and to anyone else the product's reviews do not exist (404). A rating is 1-5 and a text 0-1000 characters. The subject's rating (sum and count)
/// moves in the same statement as the review is stored, and the subject is notified. A review
/// expects the product's version and moves it, so one sent twice at once is stored once: the
/// second is decided again and finds the first.
public struct ReviewService: Sendable {
    let store: any BazaarStore
    let quotas: QuotaLimiter
    let clock: DomainClock

    /// A service over `store`, charging `quotas`, on `clock`.
    package init(store: any BazaarStore, quotas: QuotaLimiter, clock: DomainClock) {
        self.store = store
        self.quotas = quotas
        self.clock = clock
    }

    /// `callerId`'s review of the other party of the sale of product `productId`.
    public func review(_ productId: String, with request: CreateReviewRequest, by callerId: String) async throws
        -> Review
    {
        guard InputRules.rating.contains(request.rating) else {
            throw DomainError.invalidField("rating", "must be an integer from 1 to 5")
        }
        try Validation.length(request.text, field: "text", InputRules.reviewText)
        try quotas.charge(.edit, by: callerId)
        for _ in 0..<ListingService.attempts {
            guard let record = try await store.productRecord(id: productId) else {
                throw DomainError.notFound("The product")
            }
            let seller = record.product.sellerId
            guard record.product.status == .sold, let buyer = record.buyerId else {
                // Before the sale, those who could become its parties (the seller, and whoever talks
                // to them about it) hear that it is too early; anyone else that there is nothing.
                let mayBecomeParty =
                    try await callerId == seller
                    ? true : store.hasConversation(about: productId, between: seller, and: callerId)
                guard mayBecomeParty else { throw DomainError.notFound("The product") }
                throw DomainError.conflict(
                    code: "product_not_sold", message: "The product is not sold yet: reviews come after the sale.")
            }
            guard callerId == seller || callerId == buyer else { throw DomainError.notFound("The product") }
            guard try await !store.reviews(productId: productId).contains(where: { $0.authorId == callerId }) else {
                throw DomainError.conflict(code: "already_reviewed", message: "You reviewed this sale already.")
            }
            let now = clock.now()
            let subject = callerId == seller ? buyer : seller
            let review = Review(
                id: clock.newId(), productId: productId, authorId: callerId, subjectId: subject,
                rating: request.rating, text: request.text, createdAt: now)
            let notification = BazaarAPI.Notification(
                id: clock.newId(), type: NotificationType.reviewReceived, read: false, createdAt: now,
                conversationId: nil, messageId: nil, productId: productId)
            let plan = WritePlan([
                .expectProduct(id: productId, version: record.version),
                .bumpProduct(id: productId, version: record.version + 1),
                .saveReview(review),
                .notify(userId: subject, notification),
                .publish(.notificationCreated(notification), to: [subject]),
            ])
            if try await store.apply(BlockRule(store: store).shielding(plan, actor: callerId), now: now) == .applied {
                return review
            }
        }
        throw DomainError.busy("The product is changing too often to review it now.", retryAfter: 1)
    }

    /// A page of the reviews `subjectId` received, newest first.
    public func reviews(of subjectId: String, before position: Int64?, limit: Int) async throws -> Slice<Review> {
        guard try await store.existingUser(id: subjectId) != nil else {
            throw DomainError.notFound("The user")
        }
        return try await store.reviews(subjectId: subjectId, before: position, limit: limit)
    }
}
