/// Where a listing is in its life: for sale, held for one buyer, or gone to one.
public enum ProductStatus: String, Codable, Sendable, Hashable, CaseIterable {
    /// For sale: in the default list and search, open to offers.
    case available
    /// Held for one buyer (an accepted offer, or the seller's choice); back to `available` when
    /// released.
    case reserved
    /// Sold to one buyer: final. Nothing about the listing changes any more.
    case sold
}

/// Which listings a product list shows, by status (`GET /v1/products?status=`).
public enum ProductStatusFilter: String, Codable, Sendable, Hashable, CaseIterable {
    /// Only those for sale: the default.
    case available
    /// Only those held for a buyer.
    case reserved
    /// Only those sold.
    case sold
    /// Every listing, whatever its status (a seller's page of what they sold, too).
    case all

    /// The one status this filter keeps, or `nil` for ``all``.
    public var status: ProductStatus? {
        switch self {
        case .available: .available
        case .reserved: .reserved
        case .sold: .sold
        case .all: nil
        }
    }
}
