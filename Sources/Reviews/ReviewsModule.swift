import Dependencies
import Networking
import Session

/// The reviews feature: a person's reviews and rating (for anyone), and the form to review the
/// other party of a sale (for the signed-in user). It knows no other feature: a seller's page puts
/// their reviews beside their listings in the app.
public struct ReviewsModule: ReviewsModuleProtocol {
    private let network: NonAuthenticatedNetworkController
    private let session: UserSession?

    /// Makes the module; `session` is the signed-in user's, if any (writing needs one).
    public init(network: NonAuthenticatedNetworkController, session: UserSession?) {
        self.network = network
        self.session = session
    }

    /// The reviews of the user with this id.
    public func reviewsScreen(userID: String) -> ReviewsScreen {
        ReviewsScreen(title: "Reviews", logic: ReviewsLogicController(network: network, userID: userID))
    }

    /// The form to review the sale of the product with this id.
    public func reviewFormScreen(productID: String) -> ReviewFormScreen {
        ReviewFormScreen(title: "Review", logic: ReviewFormLogicController(session: session, productID: productID))
    }
}
