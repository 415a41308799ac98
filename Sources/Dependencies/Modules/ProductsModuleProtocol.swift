import BazaarAPI

/// What the product list shows: the products loaded so far and whether more pages exist.
public struct ProductListContent: Sendable, Equatable {
    /// The products, newest first.
    public var products: [Product]
    /// The search, if any.
    public var query: String?
    /// Whether ``ProductListLogic/loadMore()`` can add a page.
    public var hasMore: Bool

    /// Makes content.
    public init(products: [Product], query: String?, hasMore: Bool) {
        self.products = products
        self.query = query
        self.hasMore = hasMore
    }
}

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

/// Browsing and searching products, a page at a time.
public protocol ProductListLogic: Sendable {
    /// Loads the first page, of everything or of matches for `query`.
    func load(query: String?) async -> ScreenState<ProductListContent>
    /// Adds the next page to what is shown.
    func loadMore() async -> ScreenState<ProductListContent>
}

/// One product's page.
public protocol ProductDetailLogic: Sendable {
    /// Loads the product and its seller.
    func load() async -> ScreenState<ProductDetailContent>
}

/// Listing a product for sale.
public protocol SellLogic: Sendable {
    /// Puts a product up for sale and returns it as listed.
    func sell(title: String, description: String, priceCents: Int, currency: String) async -> ScreenState<Product>
}

extension ProductsModuleProtocol {
    /// Browsing (and searching) products, 20 at a time.
    public func productListScreen() -> ProductListScreen { productListScreen(pageSize: 20) }
}

extension ProductListLogic {
    /// The seed's form of ``load(query:)``.
    @discardableResult
    public func load(query: String?, then handler: @escaping StateHandler<ScreenState<ProductListContent>>)
        -> Task<Void, Never>
    {
        Task { handler(await load(query: query)) }
    }
}

extension ProductDetailLogic {
    /// The seed's form of ``load()``.
    @discardableResult
    public func load(then handler: @escaping StateHandler<ScreenState<ProductDetailContent>>) -> Task<Void, Never> {
        Task { handler(await load()) }
    }
}

extension SellLogic {
    /// The seed's form of ``sell(title:description:priceCents:currency:)``.
    @discardableResult
    public func sell(
        title: String, description: String, priceCents: Int, currency: String,
        then handler: @escaping StateHandler<ScreenState<Product>>
    ) -> Task<Void, Never> {
        Task { handler(await sell(title: title, description: description, priceCents: priceCents, currency: currency)) }
    }
}

/// The products feature's screens.
public typealias ProductListScreen = Screen<any ProductListLogic>

/// A product's page as a screen.
public typealias ProductDetailScreen = Screen<any ProductDetailLogic>

/// The sell form as a screen.
public typealias SellScreen = Screen<any SellLogic>

/// The products feature's public face; the app resolves it from ``Dependencies``.
public protocol ProductsModuleProtocol: Sendable {
    /// Browsing (and searching) products, `pageSize` (1 to 100) at a time.
    func productListScreen(pageSize: Int) -> ProductListScreen
    /// One product's page.
    func productScreen(id: String) -> ProductDetailScreen
    /// Selling a product (needs a signed-in user).
    func sellScreen() -> SellScreen
}
