import Dependencies
import Foundation
import Networking
import Session

/// The account feature: the signed-in person's password, sessions, blocks, export and deletion.
/// It knows no other feature: a conversation's "block" button reaches it through
/// ``Dependencies``, as every feature does.
public struct AccountModule: AccountModuleProtocol {
    private let session: UserSession

    /// Makes the module for `session`'s user.
    public init(session: UserSession) {
        self.session = session
    }

    /// The account screen.
    public func accountScreen() -> AccountScreen {
        AccountScreen(title: "Account", logic: AccountLogicController(session: session))
    }

    /// The account's export, as the server zips it.
    public func exportArchive() async throws(ScreenError) -> Data {
        do throws(NetworkError) {
            return try await session.network.request(BazaarEndpoints.exportAccount)
        } catch {
            throw ScreenError(error)
        }
    }
}
