import Dependencies
import Session

/// The notifications feature: hands out the signed-in user's notifications screen.
public struct NotificationsModule: NotificationsModuleProtocol {
    private let session: UserSession

    /// Makes the module for `session`'s user.
    public init(session: UserSession) {
        self.session = session
    }

    /// A new notifications screen.
    public func notificationsScreen() -> NotificationsScreen {
        NotificationsScreen(title: "Notifications", logic: NotificationsLogicController(network: session.network))
    }
}
