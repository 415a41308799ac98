import BazaarAPI
import BazaarStorage
import Foundation

/// The rules of a listing's life, written once for every storage engine: listing, editing,
/// changing status and taking a listing down.
///
/// Only the seller may change a listing; to anyone else it answers as a product that does not
/// exist (404). A sold listing is final: any later edit or status change is a conflict
/// (`product_sold`). `reserved` and `sold` name a buyer who has a conversation with the seller
/// about this product (`invalid_buyer` otherwise); `available` releases a reservation. Reserving,
/// selling or taking a product down declines its open offers (each in its conversation). Each
/// change is decided on the product as read and applied only if nothing changed it since (the
/// product's version, checked under its row lock by the store); a change that lost that race is
/// decided again on what is there now. Every change costs one ``QuotaAction/edit``.
public struct ListingService: Sendable {
    let store: any BazaarStore
    let events: any LiveEventBus
    let quotas: QuotaLimiter
    let clock: DomainClock

    /// How many times a change is decided again after losing a race before the caller is told
    /// to try later. Each race has a winner, and a winner is done, so with fewer than this many
    /// changes of one product at once every one of them is decided.
    static let attempts = 16

    /// A service over `store`, announcing product changes on `events`, charging `quotas`, on `clock`.
    package init(store: any BazaarStore, events: any LiveEventBus, quotas: QuotaLimiter, clock: DomainClock) {
        self.store = store
        self.events = events
        self.quotas = quotas
        self.clock = clock
    }

    /// Lists a product for sale by `sellerId`.
    public func create(_ request: CreateProductRequest, by sellerId: String) async throws -> Product {
        try Validation.product(request)
        try quotas.charge(.listProduct, by: sellerId)
        let product = Product(
            id: clock.newId(), sellerId: sellerId, title: request.title, description: request.description,
            priceCents: request.priceCents, currency: request.currency, createdAt: clock.now())
        try await store.createProduct(product)
        await events.productsChanged()
        return product
    }

    /// Changes the fields `request` gives of a product `callerId` sells.
    public func edit(_ productId: String, with request: UpdateProductRequest, by callerId: String) async throws
        -> Product
    {
        try quotas.charge(.edit, by: callerId)
        return try await change(productId, by: callerId) { record, now in
            let merged = CreateProductRequest(
                title: request.title ?? record.product.title,
                description: request.description ?? record.product.description,
                priceCents: request.priceCents ?? record.product.priceCents,
                currency: request.currency ?? record.product.currency)
            try Validation.product(merged)
            var changed = record
            changed.product.title = merged.title
            changed.product.description = merged.description
            changed.product.priceCents = merged.priceCents
            changed.product.currency = merged.currency
            return changed
        }
    }

    /// Sets the status of a product `callerId` sells: `reserved` or `sold` for `buyerId`, or
    /// `available` again.
    public func changeStatus(
        _ productId: String, to request: ChangeProductStatusRequest, by callerId: String
    ) async throws -> Product {
        try quotas.charge(.edit, by: callerId)
        let buyerId: String?
        switch request.status {
        case .available:
            guard request.buyerId == nil else {
                throw DomainError.invalidField("buyerId", "must not be given when the product becomes available")
            }
            buyerId = nil
        case .reserved, .sold:
            guard let given = request.buyerId, Validation.isId(given) else {
                throw DomainError.invalidField("buyerId", "must name the buyer when the product is reserved or sold")
            }
            buyerId = given
        }
        if let buyerId {
            // Asked before the change is decided: a conversation, once there, stays.
            guard buyerId != callerId,
                try await store.hasConversation(about: productId, between: callerId, and: buyerId)
            else {
                // A buyer check on someone else's product would tell that the product exists.
                guard let record = try await store.productRecord(id: productId), record.product.sellerId == callerId
                else { throw DomainError.notFound("The product") }
                throw DomainError.unprocessable(
                    code: "invalid_buyer",
                    message: "The buyer must be someone with a conversation with you about this product.")
            }
        }
        return try await change(productId, by: callerId) { record, _ in
            var changed = record
            changed.product.status = request.status
            changed.buyerId = buyerId
            return changed
        }
    }

    /// Takes down a product `callerId` sells: it is gone for everyone, with its photos; the
    /// conversations about it stay, and its open offers are declined in them.
    public func delete(_ productId: String, by callerId: String) async throws {
        try quotas.charge(.edit, by: callerId)
        for _ in 0..<Self.attempts {
            guard let record = try await store.productRecord(id: productId), record.product.sellerId == callerId
            else { throw DomainError.notFound("The product") }
            let now = clock.now()
            var plan = WritePlan([.expectProduct(id: productId, version: record.version)])
            try await closeOffers(on: record.product, at: now, in: &plan)
            plan.append(.deleteProduct(id: productId))
            if try await store.apply(BlockRule(store: store).shielding(plan, actor: callerId), now: now) == .applied {
                await events.productsChanged()
                return
            }
        }
        throw DomainError.busy("The product is changing too often to be taken down now.", retryAfter: 1)
    }

    /// Adds to `plan` the decline of every open offer on `product`: once it is reserved, sold or
    /// gone, no offer on it can be accepted, and each buyer is told in the conversation.
    private func closeOffers(on product: Product, at now: Date, in plan: inout WritePlan) async throws {
        OfferTimeline(clock: clock).decline(
            try await store.openOffers(productId: product.id), seller: product.sellerId, at: now, to: &plan)
    }

    /// Adds to `plan` what the people who saved the product are told of the change from `record`
    /// to `changed`: that its price went down (while it is for sale), or that it was sold. The
    /// seller and the buyer are not told of their own deal.
    private func tellSavers(
        from record: ProductRecord, to changed: ProductRecord, at now: Date, in plan: inout WritePlan
    )
        async throws
    {
        let type: String
        if changed.product.status == .sold, record.product.status != .sold {
            type = NotificationType.favouriteSold
        } else if changed.product.status == .available, changed.product.currency == record.product.currency,
            changed.product.priceCents < record.product.priceCents
        {
            type = NotificationType.favouritePriceDropped
        } else {
            return
        }
        let told = Set([changed.product.sellerId, changed.buyerId].compactMap { $0 })
        for userId in try await store.favouriteUserIds(productId: changed.product.id) where !told.contains(userId) {
            let notification = BazaarAPI.Notification(
                id: clock.newId(), type: type, read: false, createdAt: now, conversationId: nil, messageId: nil,
                productId: changed.product.id)
            plan.append(.notify(userId: userId, notification))
            plan.append(.publish(.notificationCreated(notification), to: [userId]))
        }
    }

    /// Reads the product, checks it may change, lets `decide` make the new record and applies it
    /// unless the product moved meanwhile (then decides again).
    private func change(
        _ productId: String, by callerId: String,
        _ decide: (ProductRecord, Date) throws -> ProductRecord
    ) async throws -> Product {
        for _ in 0..<Self.attempts {
            guard let record = try await store.productRecord(id: productId), record.product.sellerId == callerId
            else { throw DomainError.notFound("The product") }
            guard record.product.status != .sold else {
                throw DomainError.conflict(
                    code: "product_sold", message: "The product is sold; it cannot change any more.")
            }
            let now = clock.now()
            var changed = try decide(record, now)
            // Nothing to change is no change: the same answer, and no version moved.
            if changed == record { return record.product }
            changed.product.updatedAt = now
            changed.version = record.version + 1
            var plan = WritePlan([.expectProduct(id: productId, version: record.version), .saveProduct(changed)])
            try await tellSavers(from: record, to: changed, at: now, in: &plan)
            if changed.product.status != .available {
                try await closeOffers(on: changed.product, at: now, in: &plan)
            }
            if try await store.apply(BlockRule(store: store).shielding(plan, actor: callerId), now: now) == .applied {
                await events.productsChanged()
                return changed.product
            }
        }
        throw DomainError.busy("The product is changing too often to change now.", retryAfter: 1)
    }
}
