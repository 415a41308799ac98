import Dependencies
import Networking
import Session

/// The products feature (seed 002's module): browsing, a product's page, selling, and the seller's
/// own listings.
public struct ProductsModule: ProductsModuleProtocol {
    private let network: NonAuthenticatedNetworkController
    private let session: UserSession?

    /// Makes the module; `session` is the signed-in user's, if any (selling needs one).
    public init(network: NonAuthenticatedNetworkController, session: UserSession?) {
        self.network = network
        self.session = session
    }

    /// Browsing and searching, `pageSize` at a time.
    public func productListScreen(pageSize: Int) -> ProductListScreen {
        ProductListScreen(title: "Products", logic: ProductListLogicController(network: network, pageSize: pageSize))
    }

    /// One product's page.
    public func productScreen(id: String) -> ProductDetailScreen {
        ProductDetailScreen(title: "Product", logic: ProductDetailLogicController(network: network, productID: id))
    }

    /// The sell form.
    public func sellScreen() -> SellScreen {
        SellScreen(title: "Sell", logic: SellLogicController(session: session))
    }

    /// One of the signed-in user's own listings.
    public func listingScreen(id: String) -> ListingScreen {
        ListingScreen(
            title: "Your listing",
            logic: ListingLogicController(session: session, publicNetwork: network, productID: id))
    }
}
