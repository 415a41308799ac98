import Dependencies
import Session

/// The favourites feature: hands out the signed-in user's saved-products screen, whose logic also
/// saves and removes products (a product page's save button sends it ``FavouritesAction/save(productId:)``).
public struct FavouritesModule: FavouritesModuleProtocol {
    private let session: UserSession

    /// Makes the module for `session`'s user.
    public init(session: UserSession) {
        self.session = session
    }

    /// A new saved-products screen.
    public func favouritesScreen() -> FavouritesScreen {
        FavouritesScreen(title: "Saved", logic: FavouritesLogicController(network: session.network))
    }
}
