import Foundation

/// Something a seller offers.
public struct Product: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier.
    public var id: String
    /// The id of the user who listed it.
    public var sellerId: String
    /// A short title (1-120 characters).
    public var title: String
    /// A longer description (0-5000 characters).
    public var description: String
    /// The price in the currency's minor unit; never negative.
    public var priceCents: Int
    /// ISO 4217 code, three upper-case letters (`EUR`, `USD`).
    public var currency: String
    /// When it was listed.
    public var createdAt: Date

    /// Creates a product value.
    public init(
        id: String, sellerId: String, title: String, description: String, priceCents: Int,
        currency: String, createdAt: Date
    ) {
        self.id = id
        self.sellerId = sellerId
        self.title = title
        self.description = description
        self.priceCents = priceCents
        self.currency = currency
        self.createdAt = createdAt
    }
}
