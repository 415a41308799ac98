import BazaarAPI

/// What the product list shows: the products loaded so far and whether more pages exist.
public struct ProductListContent: Sendable, Equatable {
    /// The products, in the search's order (newest first without one).
    public var products: [Product]
    /// The search, filters and order the list shows.
    public var search: ProductSearch
    /// Whether a ``ProductListAction/loadMore`` can add a page.
    public var hasMore: Bool

    /// Makes content.
    public init(products: [Product], search: ProductSearch, hasMore: Bool) {
        self.products = products
        self.search = search
        self.hasMore = hasMore
    }

    /// Makes content for a plain text search (or none).
    public init(products: [Product], query: String?, hasMore: Bool) {
        self.init(products: products, search: ProductSearch(text: query), hasMore: hasMore)
    }

    /// The search text, if any.
    public var query: String? { search.text }
}

/// What the person can do on the product list.
public enum ProductListAction: Sendable, Equatable {
    /// Loads the first page of everything, or of the products matching `query`.
    case load(query: String?)
    /// Loads the first page of what `search` finds: text, price range, seller and order.
    case search(ProductSearch)
    /// Adds the next page.
    case loadMore
    /// Loads pages (of the current search) until `count` products are shown or none are left.
    case loadAtLeast(Int)
}

/// Browsing and searching products, a page at a time.
public protocol ProductListLogic: LogicController
where Action == ProductListAction, State == ScreenState<ProductListContent> {}

/// What a product's page shows: the product and its seller.
public struct ProductDetailContent: Sendable, Equatable {
    /// The product.
    public var product: Product
    /// Its seller's public profile.
    public var seller: User

    /// Makes content.
    public init(product: Product, seller: User) {
        self.product = product
        self.seller = seller
    }
}

/// What the person can do on a product's page.
public enum ProductDetailAction: Sendable, Equatable {
    /// Loads the product and its seller.
    case load
}

/// One product's page.
public protocol ProductDetailLogic: LogicController
where Action == ProductDetailAction, State == ScreenState<ProductDetailContent> {}

/// The sell form as the person typed it: text, so the logic (not the renderer) reads the price.
public struct SellDraft: Sendable, Equatable {
    /// What it is.
    public var title: String
    /// More about it.
    public var description: String
    /// The price as typed, like `120` or `4.50`.
    public var price: String
    /// An ISO 4217 code (lower case is accepted).
    public var currency: String
    /// Photos to add, in order (the first of a new listing is its cover); at most
    /// `Product.photoLimit` in all.
    public var photos: [PhotoToSend]

    /// Makes a draft.
    public init(
        title: String = "", description: String = "", price: String = "", currency: String = "EUR",
        photos: [PhotoToSend] = []
    ) {
        self.title = title
        self.description = description
        self.price = price
        self.currency = currency
        self.photos = photos
    }
}

/// How far the upload of a listing's photos is: photo ``number`` of ``count``, and how much of
/// its bytes went.
public struct PhotoUploadProgress: Sendable, Equatable {
    /// The photo being sent, from 1.
    public var number: Int
    /// How many are being sent.
    public var count: Int
    /// The share of this photo's bytes sent, 0 to 1.
    public var fraction: Double

    /// Makes a progress report.
    public init(number: Int, count: Int, fraction: Double) {
        self.number = number
        self.count = count
        self.fraction = fraction
    }

    /// The share of all the photos' uploads done, 0 to 1 (each photo counts the same).
    public var overall: Double {
        count == 0 ? 1 : min(1, (Double(number - 1) + fraction) / Double(count))
    }
}

/// A field of the sell form, for errors shown beside it.
public enum SellField: String, Sendable, Equatable, Hashable, CaseIterable {
    /// The title.
    case title
    /// The description.
    case description
    /// The price.
    case price
    /// The currency.
    case currency
    /// The photos.
    case photos
}

/// What the sell screen shows: the form (with an error beside each field that breaks a rule), or
/// the product once listed.
public struct SellContent: Sendable, Equatable {
    /// What is in the form.
    public var draft: SellDraft
    /// A sentence for each field that breaks a rule.
    public var fieldErrors: [SellField: String]
    /// The product as listed, once it is (with the photos the server took).
    public var listed: Product?
    /// While the draft's photos are uploaded (after the product is listed), how far that is.
    public var uploading: PhotoUploadProgress?
    /// A sentence for each photo the server did not take ("Photo 2 was not added: …"); the
    /// product is listed all the same.
    public var photoProblems: [String]

    /// Makes content.
    public init(
        draft: SellDraft = SellDraft(), fieldErrors: [SellField: String] = [:], listed: Product? = nil,
        uploading: PhotoUploadProgress? = nil, photoProblems: [String] = []
    ) {
        self.draft = draft
        self.fieldErrors = fieldErrors
        self.listed = listed
        self.uploading = uploading
        self.photoProblems = photoProblems
    }
}

/// What the person can do on the sell screen.
public enum SellAction: Sendable, Equatable {
    /// Lists the product described by the draft (or shows why not, beside the fields).
    case sell(SellDraft)
}

/// Listing a product for sale.
public protocol SellLogic: LogicController where Action == SellAction, State == ScreenState<SellContent> {}

extension SellDraft {
    /// The form filled in with `product` as it is (to edit it).
    public init(_ product: Product) {
        self.init(
            title: product.title, description: product.description, price: MoneyText.amount(cents: product.priceCents),
            currency: product.currency)
    }
}

/// What the seller's own listing screen shows: the product, the form to edit it (with an error
/// beside each field that breaks a rule), and the people it can be reserved for or sold to.
public struct ListingContent: Sendable, Equatable {
    /// The product as it is now; after ``ListingAction/takeDown``, as it was.
    public var product: Product
    /// The edit form: the product's fields, or what was typed when a change was refused.
    public var draft: SellDraft
    /// A sentence for each field of the draft that breaks a rule.
    public var fieldErrors: [SellField: String]
    /// The people with a conversation with the seller about this product, newest activity first:
    /// the only ones it can be reserved for or sold to.
    public var buyers: [User]
    /// Whether the listing was taken down.
    public var isRemoved: Bool
    /// While photos are uploaded, how far that is.
    public var uploading: PhotoUploadProgress?
    /// A sentence for each photo the server did not take in the last ``ListingAction/addPhotos(_:)``.
    public var photoProblems: [String]

    /// Makes content.
    public init(
        product: Product, draft: SellDraft? = nil, fieldErrors: [SellField: String] = [:], buyers: [User] = [],
        isRemoved: Bool = false, uploading: PhotoUploadProgress? = nil, photoProblems: [String] = []
    ) {
        self.product = product
        self.draft = draft ?? SellDraft(product)
        self.fieldErrors = fieldErrors
        self.buyers = buyers
        self.isRemoved = isRemoved
        self.uploading = uploading
        self.photoProblems = photoProblems
    }

    /// How many more photos the listing can take.
    public var photoRoom: Int { max(0, Product.photoLimit - product.photos.count) }

    /// Whether the listing can still change: a sold one is final.
    public var canChange: Bool { product.status != .sold && !isRemoved }

    /// The statuses the seller may move it to now, with who they need: `available` (from reserved),
    /// `reserved` (while available) and `sold` (until sold), the last two only when someone can be
    /// named as the buyer.
    public var statusChoices: [ProductStatus] {
        guard !isRemoved else { return [] }
        switch product.status {
        case .available: return buyers.isEmpty ? [] : [.reserved, .sold]
        case .reserved: return buyers.isEmpty ? [.available] : [.available, .sold]
        case .sold: return []
        }
    }
}

/// What the seller can do with their own listing.
public enum ListingAction: Sendable, Equatable {
    /// Loads the product and the people who can buy it.
    case load
    /// Changes the product to what the draft says (or shows why not, beside the fields); a
    /// price drop is told to the people who saved it.
    case edit(SellDraft)
    /// Marks it `available`, or `reserved` / `sold` for the buyer with this id.
    case setStatus(ProductStatus, buyerID: String?)
    /// Takes it down for good: it is gone for everyone, its open offers declined.
    case takeDown
    /// Adds photos after the ones it has, one upload at a time, with progress in the states; a
    /// photo the server refuses is named in ``ListingContent/photoProblems`` and the rest go on.
    case addPhotos([PhotoToSend])
    /// Removes the photo with this id.
    case removePhoto(String)
    /// Moves the photo with this id to `position` (0 is the cover; past the end is last).
    case movePhoto(String, to: Int)
}

/// The seller's own listing: editing it, changing its status, taking it down.
public protocol ListingLogic: LogicController where Action == ListingAction, State == ScreenState<ListingContent> {}

extension ProductsModuleProtocol {
    /// Browsing (and searching) products, 20 at a time.
    public func productListScreen() -> ProductListScreen { productListScreen(pageSize: 20) }
}

/// The products feature's screens.
public typealias ProductListScreen = Screen<any ProductListLogic>

/// A product's page as a screen.
public typealias ProductDetailScreen = Screen<any ProductDetailLogic>

/// The sell form as a screen.
public typealias SellScreen = Screen<any SellLogic>

/// The seller's own listing as a screen.
public typealias ListingScreen = Screen<any ListingLogic>

/// The products feature's public face; the app resolves it from ``Dependencies``.
public protocol ProductsModuleProtocol: Sendable {
    /// Browsing (and searching) products, `pageSize` (1 to 100) at a time.
    func productListScreen(pageSize: Int) -> ProductListScreen
    /// One product's page.
    func productScreen(id: String) -> ProductDetailScreen
    /// Selling a product (needs a signed-in user).
    func sellScreen() -> SellScreen
    /// Managing one of the signed-in user's own listings (needs a signed-in user; to anyone but
    /// its seller the product does not exist).
    func listingScreen(id: String) -> ListingScreen
}
