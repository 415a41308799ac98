import Dependencies
import Session

/// The notifications feature: hands out the signed-in user's notifications screen.
public struct NotificationsModule: NotificationsModuleProtocol {
    private let session: UserSession
    private let events: (any LiveEventSource)?

    /// Makes the module for `session`'s user; screens follow `events` (the live socket) while open.
    public init(session: UserSession, events: (any LiveEventSource)? = nil) {
        self.session = session
        self.events = events
    }

    /// A new notifications screen.
    public func notificationsScreen() -> NotificationsScreen {
        NotificationsScreen(
            title: "Notifications", logic: NotificationsLogicController(network: session.network, events: events))
    }
}
