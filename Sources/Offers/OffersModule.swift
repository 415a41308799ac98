import Dependencies
import Session

/// The offers feature: hands out the offers of a conversation, whose logic makes, accepts,
/// declines and withdraws them and follows them live. It knows no other feature: a chat screen
/// and an offers screen of the same conversation are put side by side by the app.
public struct OffersModule: OffersModuleProtocol {
    private let session: UserSession
    private let connection: (any LiveEventSource)?

    /// Makes the module for `session`'s user, following offers on `connection` when given (the one
    /// socket every screen shares).
    public init(session: UserSession, connection: (any LiveEventSource)? = nil) {
        self.session = session
        self.connection = connection
    }

    /// The offers in the conversation with id `conversationID`.
    public func offersScreen(conversationID: String) -> OffersScreen {
        OffersScreen(
            title: "Offers",
            logic: OffersLogicController(
                network: session.network, connection: connection, conversationID: conversationID,
                viewerID: session.userID))
    }
}
