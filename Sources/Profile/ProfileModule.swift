import Dependencies
import Session

/// The profile feature (seed 002's module): hands out profile screens for the signed-in user.
public struct ProfileModule: ProfileModuleProtocol {
    private let session: UserSession

    /// Makes the module for `session`'s user.
    public init(session: UserSession) {
        self.session = session
    }

    /// A new profile screen.
    public func profileScreen() -> ProfileScreen {
        ProfileScreen(title: "Profile", logic: ProfileLogicController(session: session))
    }
}
