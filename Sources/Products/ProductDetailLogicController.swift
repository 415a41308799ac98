import BazaarAPI
import Dependencies
import Networking
import Session

/// One product's page: the product and its seller's public profile.
public actor ProductDetailLogicController: ProductDetailLogic {
    private let network: NonAuthenticatedNetworkController
    private let productID: String
    private let broadcast = StateBroadcast<ScreenState<ProductDetailContent>>(.loading)

    /// Makes the logic for the product with `productID`.
    public init(network: NonAuthenticatedNetworkController, productID: String) {
        self.network = network
        self.productID = productID
    }

    /// The page's states from now on.
    public func states() -> AsyncStream<ScreenState<ProductDetailContent>> { broadcast.subscribe(keeping: self) }

    /// Loads the product, then its seller.
    @discardableResult
    public func send(_ action: ProductDetailAction) async -> ScreenState<ProductDetailContent> {
        switch action {
        case .load:
            do throws(NetworkError) {
                let product = try await network.request(BazaarEndpoints.product(id: productID))
                let seller = try await network.request(BazaarEndpoints.user(id: product.sellerId))
                return broadcast.publish(.presenting(ProductDetailContent(product: product, seller: seller)))
            } catch {
                return broadcast.publish(.failed(ScreenError(error)))
            }
        }
    }
}
