/// The body of `PATCH /v1/products/{id}`: a field left out (or `null`) stays as it is; each given
/// one follows the rule it has when a product is listed.
public struct UpdateProductRequest: Codable, Sendable, Equatable {
    /// A new title (1-120 characters).
    public var title: String?
    /// A new description (0-5000 characters).
    public var description: String?
    /// A new price in the currency's minor unit.
    public var priceCents: Int?
    /// A new ISO 4217 code.
    public var currency: String?

    /// Makes an update of the given fields.
    public init(title: String? = nil, description: String? = nil, priceCents: Int? = nil, currency: String? = nil) {
        self.title = title
        self.description = description
        self.priceCents = priceCents
        self.currency = currency
    }
}

/// The body of `PUT /v1/products/{id}/status`.
public struct ChangeProductStatusRequest: Codable, Sendable, Equatable {
    /// The new status.
    public var status: ProductStatus
    /// For `reserved` and `sold`: the buyer, someone with a conversation with the seller about
    /// this product. Not given for `available`.
    public var buyerId: String?

    /// Makes a status change.
    public init(status: ProductStatus, buyerId: String? = nil) {
        self.status = status
        self.buyerId = buyerId
    }
}
