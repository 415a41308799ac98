import BazaarAPI
import BazaarStorage
import Foundation

/// The rules of saving products, written once for every storage engine.
///
/// Anyone signed in saves any product but their own (`own_product`), of any status; saving twice
/// is saving once, and removing what was not saved changes nothing, so both are idempotent. The
/// product's count moves with each save that is new and each removal that removed something,
/// in the same statement, so saves and removals at once leave it right. Each costs one
/// ``QuotaAction/edit``.
public struct FavouriteService: Sendable {
    let store: any BazaarStore
    let events: any LiveEventBus
    let quotas: QuotaLimiter
    let clock: DomainClock

    /// A service over `store`, announcing on `events`, charging `quotas`, on `clock`.
    package init(store: any BazaarStore, events: any LiveEventBus, quotas: QuotaLimiter, clock: DomainClock) {
        self.store = store
        self.events = events
        self.quotas = quotas
        self.clock = clock
    }

    /// Saves product `productId` for `userId`.
    public func save(_ productId: String, for userId: String) async throws {
        try quotas.charge(.edit, by: userId)
        guard let product = try await store.product(id: productId) else { throw DomainError.notFound("The product") }
        guard product.sellerId != userId else {
            throw DomainError.unprocessable(code: "own_product", message: "You cannot save your own product.")
        }
        try await apply(.saveFavourite(userId: userId, productId: productId))
    }

    /// Removes `userId`'s save of product `productId`, if there is one.
    public func remove(_ productId: String, for userId: String) async throws {
        try quotas.charge(.edit, by: userId)
        guard try await store.product(id: productId) != nil else { throw DomainError.notFound("The product") }
        try await apply(.removeFavourite(userId: userId, productId: productId))
    }

    /// A page of the products `userId` saved, most recently saved first.
    public func saved(by userId: String, before position: Int64?, limit: Int) async throws -> Slice<Product> {
        try await store.favourites(userId: userId, before: position, limit: limit)
    }

    private func apply(_ write: StoredWrite) async throws {
        _ = try await store.apply(WritePlan([write]), now: clock.now())
        // The count is part of every encoded product and page.
        await events.productsChanged()
    }
}
