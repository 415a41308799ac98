import BazaarAPI
import Dependencies
import Networking
import Session

/// One product's page: the product and its seller's public profile.
public struct ProductDetailLogicController: ProductDetailLogic {
    private let network: NonAuthenticatedNetworkController
    private let productID: String

    /// Makes the logic for the product with `productID`.
    public init(network: NonAuthenticatedNetworkController, productID: String) {
        self.network = network
        self.productID = productID
    }

    /// Loads the product, then its seller.
    public func load() async -> ScreenState<ProductDetailContent> {
        do throws(NetworkError) {
            let product = try await network.request(BazaarEndpoints.product(id: productID))
            let seller = try await network.request(BazaarEndpoints.user(id: product.sellerId))
            return .presenting(ProductDetailContent(product: product, seller: seller))
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
