import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// The account screen's logic: reads the sessions and the people blocked, and turns each action
/// into the request and the state after it. A password the server refuses is shown beside its
/// field; a deletion ends with the session forgotten here too, so nothing of the account stays on
/// the device.
public actor AccountLogicController: AccountLogic {
    private let session: UserSession
    private let broadcast = StateBroadcast<ScreenState<AccountContent>>(.loading)
    private var content = AccountContent()

    /// Makes the logic for `session`'s user.
    public init(session: UserSession) {
        self.session = session
    }

    /// The screen's states from now on.
    public func states() -> AsyncStream<ScreenState<AccountContent>> { broadcast.subscribe(keeping: self) }

    /// Runs `action` and publishes the state after it.
    @discardableResult
    public func send(_ action: AccountAction) async -> ScreenState<AccountContent> {
        content.notice = nil
        content.fieldErrors = [:]
        do throws(NetworkError) {
            switch action {
            case .load:
                break
            case .changePassword(let current, let new):
                guard InputRules.fits(new, InputRules.password) else {
                    return refuse(.newPassword, "Choose a password of 8 to 128 characters.")
                }
                do throws(NetworkError) {
                    _ = try await session.network.request(
                        BazaarEndpoints.changePassword(
                            ChangePasswordRequest(currentPassword: current, newPassword: new)))
                } catch  where error.serverCode == "wrong_password" {
                    return refuse(.currentPassword, "That is not your password.")
                }
                content.notice = .passwordChanged
            case .endSession(let id):
                _ = try await session.network.request(BazaarEndpoints.endSession(id: id))
                content.notice = .sessionEnded
            case .endOtherSessions:
                _ = try await session.network.request(BazaarEndpoints.endOtherSessions)
                content.notice = .otherSessionsEnded
            case .block(let userID):
                _ = try await session.network.request(BazaarEndpoints.blockUser(id: userID))
                let user = try await session.publicNetwork.request(BazaarEndpoints.user(id: userID))
                content.notice = .blocked(user)
            case .unblock(let userID):
                _ = try await session.network.request(BazaarEndpoints.unblockUser(id: userID))
                let user = try await session.publicNetwork.request(BazaarEndpoints.user(id: userID))
                content.notice = .unblocked(user)
            case .delete(let password):
                do throws(NetworkError) {
                    _ = try await session.network.request(BazaarEndpoints.deleteAccount(password: password))
                } catch  where error.serverCode == "wrong_password" {
                    return refuse(.deletePassword, "That is not your password; the account is not deleted.")
                }
                await session.forget()
                content = AccountContent(deleted: true)
                return broadcast.publish(.presenting(content))
            }
            content.sessions = try await session.network.request(BazaarEndpoints.sessions).items
            content.blocked = try await session.network.request(BazaarEndpoints.blocks(limit: 100)).items
            return broadcast.publish(.presenting(content))
        } catch {
            return broadcast.publish(.failed(ScreenError(error)))
        }
    }

    /// The content again, with `message` beside `field`.
    private func refuse(_ field: AccountField, _ message: String) -> ScreenState<AccountContent> {
        content.fieldErrors[field] = message
        return broadcast.publish(.presenting(content))
    }
}
