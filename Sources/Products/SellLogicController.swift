import BazaarAPI
import Dependencies
import Networking
import Session

/// Listing a product for sale as the signed-in user.
public struct SellLogicController: SellLogic {
    private let session: UserSession?

    /// Makes the logic; without a session, selling fails with a sign-in suggestion.
    public init(session: UserSession?) {
        self.session = session
    }

    /// Lists the product; the server's field rules come back as a failed state with its reason.
    public func sell(title: String, description: String, priceCents: Int, currency: String) async
        -> ScreenState<Product>
    {
        guard let session else {
            return .failed(ScreenError(kind: .signedOut, message: "Selling needs an account."))
        }
        do throws(NetworkError) {
            let request = CreateProductRequest(
                title: title, description: description, priceCents: priceCents, currency: currency)
            return .presenting(try await session.network.request(BazaarEndpoints.createProduct(request)))
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
