import BazaarAPI
import BazaarDomain
import BazaarSearch
import BazaarStorage
import Hummingbird

/// The search, filters and order of `GET /v1/products`, read from the query string and checked:
/// a value that breaks a rule is a 422 naming the parameter.
struct ProductListParameters {
    /// The parsed search text; `nil` when absent or blank.
    let expression: SearchExpression?
    /// Price range, seller and status.
    let filters: ProductFilters
    /// The order: as asked, or relevance with search text and newest without.
    let order: ProductOrder
    /// The text as sent, for the cache key.
    private let text: String

    /// The most a price filter may be: the same bound as a product's price.
    static let maxPrice = Int64(InputRules.priceCents.upperBound)

    /// Reads and checks the parsed query parameters of a request.
    init(_ parameters: QueryParameters.Parsed) throws {
        text = QueryParameters.string(parameters, "query") ?? ""
        try Validation.length(text, field: "query", 0...200)
        do {
            expression = try SearchExpression.parse(text)
        } catch let failure as SearchExpression.Failure {
            throw APIError.invalidField("query", failure.description)
        }
        let minimum = try Self.price(parameters, "minPriceCents")
        let maximum = try Self.price(parameters, "maxPriceCents")
        if let minimum, let maximum, minimum > maximum {
            throw APIError.invalidField("minPriceCents", "must not be more than maxPriceCents")
        }
        let seller = QueryParameters.string(parameters, "sellerId")
        if let seller, !Validation.isId(seller) {
            throw APIError.invalidField("sellerId", "must be a user id")
        }
        let status = try QueryParameters.string(parameters, "status").map { text in
            guard let status = ProductStatusFilter(rawValue: text) else {
                throw APIError.invalidField(
                    "status", "must be one of \(ProductStatusFilter.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return status
        }
        filters = ProductFilters(
            minPriceCents: minimum, maxPriceCents: maximum, sellerId: seller, status: status ?? .available)
        let sort = try QueryParameters.string(parameters, "sort").map { text in
            guard let sort = ProductSort(rawValue: text) else {
                throw APIError.invalidField(
                    "sort", "must be one of \(ProductSort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return sort
        }
        order = ProductQuery(search: expression, order: sort.map(Self.order), limit: 1).order
    }

    /// The storage order for an API sort.
    static func order(_ sort: ProductSort) -> ProductOrder {
        switch sort {
        case .relevance: .relevance
        case .newest: .newest
        case .priceAscending: .priceAscending
        case .priceDescending: .priceDescending
        }
    }

    /// A price parameter: whole minor units from 0 to ``maxPrice``.
    private static func price(_ parameters: QueryParameters.Parsed, _ name: String) throws -> Int64? {
        guard let text = QueryParameters.string(parameters, name) else { return nil }
        guard let value = Int64(text), (0...maxPrice).contains(value) else {
            throw APIError.invalidField(name, "must be an integer from 0 to \(maxPrice)")
        }
        return value
    }

    /// The key of this page in the encoded-response cache: every parameter that shapes it.
    func cacheKey(cursor: ProductPosition?, limit: Int) -> String {
        let orderName =
            switch order {
            case .relevance: "r"
            case .newest: "n"
            case .priceAscending: "a"
            case .priceDescending: "d"
            }
        var key = "page\u{0}" + text + "\u{0}" + orderName + "\u{0}" + String(limit)
        if let cursor { key += "\u{0}" + Cursor.encode(cursor, order: order) }
        if filters != ProductFilters() {
            key +=
                "\u{0}\(filters.minPriceCents ?? -1)\u{0}\(filters.maxPriceCents ?? -1)\u{0}" + (filters.sellerId ?? "")
                + "\u{0}" + filters.status.rawValue
        }
        return key
    }
}
