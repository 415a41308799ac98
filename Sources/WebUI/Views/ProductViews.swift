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
        date.formatted(
            .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
                .timeSeparator(.colon)
        ).replacingOccurrences(of: "T", with: " ")
    }

    /// `path` (as the API gives it) as a full URL on the API `server`.
    static func absolute(_ path: String, on server: URL?) -> String {
        server.flatMap { URL(string: path, relativeTo: $0)?.absoluteString } ?? path
    }

    /// ISO 8601, for `<time datetime>`.
    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }
}

/// The product list page.
struct ProductListView: Sendable {
    struct Item: Sendable {
        var id: String
        var title: String
        /// The card: cover, title, price, status.
        var card: ProductCardView
        /// Whether a Save button shows (someone signed in who does not sell it), and its state.
        var canSave: Bool
        var isSaved: Bool
        /// This list's address, for the button to come back to.
        var back: String
        var nav: NavigationView
    }

    /// One choice of the order menu.
    struct SortOption: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    var title: String
    var nav: NavigationView
    var heading: String
    var query: String
    var minPrice: String
    var maxPrice: String
    var seller: String
    var sortOptions: [SortOption]
    var queryError: String?
    var minError: String?
    var maxError: String?
    /// The list was searched (so "Nothing found" rather than an empty shop).
    var searched: Bool
    var products: [Item]
    var moreURL: String?

    /// The view of `content` (`nil` when the form could not be read) under the search form `form`;
    /// photo links are resolved against `server`.
    /// `me` and `saved` (the ids of the products they saved) draw the Save buttons.
    init(
        form: ProductSearchForm, content: ProductListContent?, pages: Int, nav: NavigationView, server: URL? = nil,
        me: User? = nil, saved: Set<String> = []
    ) {
        let query = form.text.trimmingCharacters(in: .whitespaces)
        title = query.isEmpty ? "Products" : "Search: \(query)"
        heading = query.isEmpty ? "For sale" : "Results for “\(query)”"
        self.nav = nav
        self.query = form.text
        minPrice = form.minPrice
        maxPrice = form.maxPrice
        seller = form.seller
        sortOptions = [
            ("", "Best match"), ("newest", "Newest"), ("price_asc", "Price: low to high"),
            ("price_desc", "Price: high to low"),
        ]
        .map { SortOption(value: $0.0, label: $0.1, selected: $0.0 == form.sort) }
        queryError = form.errors["q"]
        minError = form.errors["min"]
        maxError = form.errors["max"]
        searched = !(content?.search.isEmpty ?? true) || !form.errors.isEmpty
        var here = URLComponents()
        here.path = "/products"
        let items = form.queryItems.map { URLQueryItem(name: $0.0, value: $0.1) }
        here.queryItems = items.isEmpty ? nil : items
        let back = here.string ?? "/products"
        products = (content?.products ?? []).map {
            Item(
                id: $0.id, title: $0.title, card: ProductCardView($0, server: server),
                canSave: me != nil && me?.id != $0.sellerId, isSaved: saved.contains($0.id), back: back, nav: nav)
        }
        var more = URLComponents()
        more.path = "/products"
        more.queryItems =
            form.queryItems.map { URLQueryItem(name: $0.0, value: $0.1) } + [
                URLQueryItem(name: "pages", value: "\(pages + 1)")
            ]
        moreURL = content?.hasMore == true ? more.string : nil
    }

    /// The view of `content` under a form holding its search text only.
    init(content: ProductListContent, pages: Int, nav: NavigationView) {
        var form = ProductSearchForm()
        form.text = content.query ?? ""
        self.init(form: form, content: content, pages: pages, nav: nav)
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
    var sellerId: String
    /// The seller's rating as five stars (`nil` without reviews) and in words.
    var sellerStars: String?
    var sellerRating: String
    var canMessage: Bool
    var signInToMessage: Bool
    /// `available`, `reserved` or `sold`, in words.
    var status: String
    /// How many people saved it.
    var savedBy: Int
    /// Whether the person may save it (signed in, and not its seller).
    var canSave: Bool
    /// Whether the reader sells it (then the page links to their listing's page).
    var isMine: Bool
    /// Whether the person saved it.
    var isSaved: Bool
    /// The photos, cover first, at `medium` size, each linking to its `full` size.
    var photos: [Photo]
    /// Stored, not computed: templates see stored properties only.
    var hasPhotos: Bool

    /// One photo on the page.
    struct Photo: Sendable {
        var medium: String
        var full: String
        var number: Int
        var width: Int
        var height: Int
    }

    init(content: ProductDetailContent, me: User?, nav: NavigationView, server: URL? = nil, isSaved: Bool = false) {
        title = content.product.title
        status = content.product.status.rawValue.capitalized
        savedBy = content.product.favouriteCount
        canSave = me != nil && me?.id != content.seller.id
        isMine = me?.id == content.seller.id
        sellerStars = RatingText.roundedStars(of: content.seller)
        sellerRating = RatingText.summary(of: content.seller)
        self.isSaved = isSaved
        self.nav = nav
        id = content.product.id
        price = WebFormats.price(cents: content.product.priceCents, currency: content.product.currency)
        description = content.product.description
        sellerName = content.seller.displayName
        sellerUsername = content.seller.username
        sellerId = content.seller.id
        canMessage = me != nil && me?.id != content.seller.id
        signInToMessage = me == nil
        photos = content.product.photos.enumerated().map { index, photo in
            let (width, height) = ProductCardView.fitted(photo, within: 960)
            return Photo(
                medium: WebFormats.absolute(photo.mediumURL, on: server),
                full: WebFormats.absolute(photo.fullURL, on: server), number: index + 1, width: width, height: height)
        }
        hasPhotos = !photos.isEmpty
    }
}

/// The fields of a product form (selling, or editing a listing), each with its error beside it.
struct ProductFormFields: Sendable {
    var titleValue: String
    var description: String
    var price: String
    var currency: String
    var titleError: String?
    var descriptionError: String?
    var priceError: String?
    var currencyError: String?
    var photosError: String?

    init(draft: SellDraft, errors: [SellField: String]) {
        titleValue = draft.title
        description = draft.description
        price = draft.price
        currency = draft.currency
        titleError = errors[.title]
        descriptionError = errors[.description]
        priceError = errors[.price]
        currencyError = errors[.currency]
        photosError = errors[.photos]
    }
}

/// The sell form.
struct SellView: Sendable {
    var title = "Sell something"
    var nav: NavigationView
    var error: String?
    var form: ProductFormFields

    init(content: SellContent, error: String? = nil, nav: NavigationView) {
        self.nav = nav
        self.error = error
        form = ProductFormFields(draft: content.draft, errors: content.fieldErrors)
    }
}

/// The saved-products page.
struct SavedView: Sendable {
    var title = "Saved"
    var nav: NavigationView
    var products: [Item]
    var isEmpty: Bool

    /// One saved product.
    struct Item: Sendable {
        var id: String
        var title: String
        var price: String
        var status: String
        var nav: NavigationView
    }

    init(content: FavouritesContent, nav: NavigationView) {
        self.nav = nav
        products = content.products.map {
            Item(
                id: $0.id, title: $0.title, price: WebFormats.price(cents: $0.priceCents, currency: $0.currency),
                status: $0.status.rawValue.capitalized, nav: nav)
        }
        isEmpty = products.isEmpty
    }
}
