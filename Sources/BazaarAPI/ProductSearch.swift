/// How a product list is ordered (`sort` on `GET /v1/products`).
public enum ProductSort: String, Codable, Sendable, CaseIterable {
    /// Best matches first: products whose title alone matches the search, then those matched
    /// through their description; newest first within each. Without search text, as ``newest``.
    case relevance
    /// Most recently listed first.
    case newest
    /// Cheapest first; newest first among equal prices.
    case priceAscending = "price_asc"
    /// Dearest first; newest first among equal prices.
    case priceDescending = "price_desc"
}

/// What a product list asks for: search text, filters and an order, each optional.
///
/// The search text uses web-search syntax: words must all appear (in any form: "bikes" finds
/// "bike"), `"quoted words"` must appear together in that order, `-word` must not appear, and
/// `or` between words accepts either side.
public struct ProductSearch: Sendable, Hashable {
    /// Words to look for in title and description; `nil` or blank lists everything.
    public var text: String?
    /// The lowest price to include, in minor units.
    public var minPriceCents: Int?
    /// The highest price to include, in minor units.
    public var maxPriceCents: Int?
    /// Only this seller's products.
    public var sellerId: String?
    /// The order; `nil` for the server's default (relevance with text, newest without).
    public var sort: ProductSort?
    /// Which listings by status; `nil` for the server's default, only those available.
    public var status: ProductStatusFilter?

    /// Makes a search; every part is optional.
    public init(
        text: String? = nil, minPriceCents: Int? = nil, maxPriceCents: Int? = nil, sellerId: String? = nil,
        sort: ProductSort? = nil, status: ProductStatusFilter? = nil
    ) {
        self.text = text
        self.minPriceCents = minPriceCents
        self.maxPriceCents = maxPriceCents
        self.sellerId = sellerId
        self.sort = sort
        self.status = status
    }

    /// Whether the search asks for anything beyond the plain newest-first list.
    public var isEmpty: Bool {
        (text?.allSatisfy(\.isWhitespace) ?? true) && minPriceCents == nil && maxPriceCents == nil && sellerId == nil
            && sort == nil && status == nil
    }

    /// The query parameters of `GET /v1/products` for this search, absent parts left out.
    public var queryParameters: [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        if let text, !text.allSatisfy(\.isWhitespace) { parameters.append(("query", text)) }
        if let minPriceCents { parameters.append(("minPriceCents", String(minPriceCents))) }
        if let maxPriceCents { parameters.append(("maxPriceCents", String(maxPriceCents))) }
        if let sellerId { parameters.append(("sellerId", sellerId)) }
        if let sort { parameters.append(("sort", sort.rawValue)) }
        if let status { parameters.append(("status", status.rawValue)) }
        return parameters
    }

    /// What a seller's page lists: every listing of `sellerId` (reserved and sold ones too),
    /// newest first.
    public static func everyListing(of sellerId: String) -> ProductSearch {
        ProductSearch(sellerId: sellerId, sort: .newest, status: .all)
    }
}
