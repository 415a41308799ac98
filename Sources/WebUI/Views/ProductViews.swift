import BazaarAPI
import Dependencies
import Foundation

/// How the web pages write money and time.
enum WebFormats {
    /// `€120.00`, as the terminal writes it too.
    static func price(cents: Int, currency: String) -> String {
        MoneyText.format(cents: cents, currency: currency)
    }

    /// `2026-11-23 09:41` in UTC.
    static func time(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
            .timeSeparator(.colon)).replacingOccurrences(of: "T", with: " ")
    }

    /// ISO 8601, for `<time datetime>`.
    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }
}

/// The product list page.
struct ProductListView: Sendable {
    struct Item: Sendable {
        var id: String
        var title: String
        var price: String
    }

    var title: String
    var nav: NavigationView
    var heading: String
    var query: String
    var products: [Item]
    var moreURL: String?

    init(content: ProductListContent, pages: Int, nav: NavigationView) {
        let query = content.query ?? ""
        title = query.isEmpty ? "Products" : "Search: \(query)"
        heading = query.isEmpty ? "For sale" : "Results for “\(query)”"
        self.nav = nav
        self.query = query
        products = content.products.map { Item(id: $0.id, title: $0.title, price: WebFormats.price(cents: $0.priceCents, currency: $0.currency)) }
        var more = URLComponents()
        more.path = "/products"
        more.queryItems = (query.isEmpty ? [] : [URLQueryItem(name: "q", value: query)]) + [URLQueryItem(name: "pages", value: "\(pages + 1)")]
        moreURL = content.hasMore ? more.string : nil
    }
}

/// A product's page.
struct ProductDetailView: Sendable {
    var title: String
    var nav: NavigationView
    var id: String
    var price: String
    var description: String
    var sellerName: String
    var sellerUsername: String
    var canMessage: Bool
    var signInToMessage: Bool

    init(content: ProductDetailContent, me: User?, nav: NavigationView) {
        title = content.product.title
        self.nav = nav
        id = content.product.id
        price = WebFormats.price(cents: content.product.priceCents, currency: content.product.currency)
        description = content.product.description
        sellerName = content.seller.displayName
        sellerUsername = content.seller.username
        canMessage = me != nil && me?.id != content.seller.id
        signInToMessage = me == nil
    }
}

/// The sell form.
struct SellView: Sendable {
    var title = "Sell something"
    var nav: NavigationView
    var error: String?
    var titleValue: String
    var description: String
    var price: String
    var currency: String
    var titleError: String?
    var descriptionError: String?
    var priceError: String?
    var currencyError: String?

    init(content: SellContent, error: String? = nil, nav: NavigationView) {
        self.nav = nav
        self.error = error
        titleValue = content.draft.title
        description = content.draft.description
        price = content.draft.price
        currency = content.draft.currency
        titleError = content.fieldErrors[.title]
        descriptionError = content.fieldErrors[.description]
        priceError = content.fieldErrors[.price]
        currencyError = content.fieldErrors[.currency]
    }
}
