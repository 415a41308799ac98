import BazaarAPI

/// A product as stored, with what the wire never shows: who it is held for or sold to, and the
/// version every change moves on (see ``StoredWrite/expectProduct(id:version:)``).
public struct ProductRecord: Sendable, Equatable {
    /// The public view.
    public var product: Product
    /// The buyer it is reserved for or sold to; `nil` while available.
    public var buyerId: String?
    /// Moves on by one with every change; a plan that expects an older one is stale.
    public var version: Int64

    /// A record of `product`, held for or sold to `buyerId`, at `version`.
    public init(product: Product, buyerId: String?, version: Int64) {
        self.product = product
        self.buyerId = buyerId
        self.version = version
    }
}
