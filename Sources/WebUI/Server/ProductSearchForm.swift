import BazaarAPI
import Foundation
import Hummingbird

/// The product search form as the browser sends it (`/products?q=…&min=…&max=…&sort=…&seller=…`):
/// prices as typed, read into a ``ProductSearch``, with a sentence for each field that cannot be.
struct ProductSearchForm: Sendable {
    /// The fields as typed, for the form to show again.
    var text = ""
    var minPrice = ""
    var maxPrice = ""
    var sort = ""
    var seller = ""
    /// What the fields ask for, when every field reads.
    var search: ProductSearch?
    /// Why a field could not be read, by field name (`min`, `max`).
    var errors: [String: String] = [:]

    /// An empty form.
    init() {}

    /// Reads the query string of `request`.
    init(_ request: Request) {
        let parameters = request.uri.queryParameters
        text = parameters.get("q") ?? ""
        minPrice = parameters.get("min") ?? ""
        maxPrice = parameters.get("max") ?? ""
        sort = parameters.get("sort") ?? ""
        seller = parameters.get("seller") ?? ""
        let low = Self.price(minPrice, field: "min", errors: &errors)
        let high = Self.price(maxPrice, field: "max", errors: &errors)
        if let low, let high, low > high { errors["min"] = "The lowest price is above the highest." }
        guard errors.isEmpty else { return }
        search = ProductSearch(
            text: text, minPriceCents: low, maxPriceCents: high, sellerId: seller.isEmpty ? nil : seller,
            sort: ProductSort(rawValue: sort))
    }

    private static func price(_ text: String, field: String, errors: inout [String: String]) -> Int? {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        guard let cents = Price.cents(from: text) else {
            errors[field] = "Enter a price like 20 or 4.50."
            return nil
        }
        return cents
    }

    /// The same form's query items, for a link to more of its results.
    var queryItems: [(String, String)] {
        [("q", text), ("min", minPrice), ("max", maxPrice), ("sort", sort), ("seller", seller)].filter { !$0.1.isEmpty }
    }
}
