import Foundation

/// A buyer's price for a product, made inside the conversation about it.
public struct Offer: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier.
    public var id: String
    /// The product it is for.
    public var productId: String
    /// The conversation it was made in (its timeline shows it and each decision on it).
    public var conversationId: String
    /// Who made it: the member of the conversation who is not the product's seller.
    public var buyerId: String
    /// The price offered, in the product's currency's minor unit; positive.
    public var amountCents: Int
    /// The product's currency when the offer was made.
    public var currency: String
    /// Open, or how it was decided.
    public var status: OfferStatus
    /// When it was made.
    public var createdAt: Date
    /// When it was decided (its making time while open).
    public var updatedAt: Date

    /// Creates an offer value.
    public init(
        id: String, productId: String, conversationId: String, buyerId: String, amountCents: Int, currency: String,
        status: OfferStatus, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.productId = productId
        self.conversationId = conversationId
        self.buyerId = buyerId
        self.amountCents = amountCents
        self.currency = currency
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The amount as a person reads it: `120.00 EUR`.
    public var amountText: String { Price.text(cents: amountCents, currency: currency) }
}

/// Where an offer stands. Only an open offer can be decided; each decision is final.
public enum OfferStatus: String, Codable, Sendable, Hashable, CaseIterable {
    /// Waiting for the seller.
    case open
    /// Accepted by the seller: the product is reserved for the buyer.
    case accepted
    /// Declined by the seller, or by the acceptance of another offer on the product.
    case declined
    /// Taken back by the buyer, or replaced by the buyer's newer offer on the product.
    case withdrawn
}

/// The body of `POST /v1/conversations/{id}/offers`.
public struct CreateOfferRequest: Codable, Sendable, Equatable {
    /// The price offered, in the product's currency's minor unit: a positive integer.
    public var amountCents: Int

    /// Makes an offer of `amountCents`.
    public init(amountCents: Int) {
        self.amountCents = amountCents
    }
}
