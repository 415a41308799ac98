import BazaarAPI

/// What the saved-products screen shows.
public struct FavouritesContent: Sendable, Equatable {
    /// The products saved, most recently saved first (any status: a sold one stays until removed).
    public var products: [Product]
    /// Whether a ``FavouritesAction/loadMore`` can add a page.
    public var hasMore: Bool

    /// Makes content.
    public init(products: [Product], hasMore: Bool) {
        self.products = products
        self.hasMore = hasMore
    }

    /// Whether the product with this id is among those loaded.
    public func contains(_ productId: String) -> Bool { products.contains { $0.id == productId } }
}

/// What the person can do with their saved products.
public enum FavouritesAction: Sendable, Equatable {
    /// Loads the newest page.
    case load
    /// Adds the next page.
    case loadMore
    /// Saves a product (saving one saved already changes nothing); the list shows it first.
    case save(productId: String)
    /// Stops saving a product; the list drops it.
    case remove(productId: String)
}

/// The saved-products screen's logic: actions in, states out.
public protocol FavouritesLogic: LogicController
where Action == FavouritesAction, State == ScreenState<FavouritesContent> {}

/// The saved-products screen as a module hands it out.
public typealias FavouritesScreen = Screen<any FavouritesLogic>

/// The favourites feature's public face; the app resolves it from ``Dependencies``.
public protocol FavouritesModuleProtocol: Sendable {
    /// A new saved-products screen for the signed-in user.
    func favouritesScreen() -> FavouritesScreen
}
