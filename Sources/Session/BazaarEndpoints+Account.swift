import BazaarAPI
import Foundation
import Networking

/// The account: its password, its sessions, its export and its deletion.
extension BazaarEndpoints {
    /// `PUT /v1/users/me/password`: change your password; every other session ends at once.
    /// Never retried: a wrong current password counts toward the sign-in throttle.
    public static func changePassword(_ body: ChangePasswordRequest) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.put, APIRoutes.changePassword.template, parameters: .json(body), retryPolicy: .never)
    }

    /// `GET /v1/users/me/sessions`: the sessions signed in to your account (this one marked `current`).
    public static let sessions = AuthenticatedEndpoint<AccountSessions>(
        .get, APIRoutes.sessions.template, cachePolicy: .disabled)

    /// `DELETE /v1/users/me/sessions/{id}`: sign one of your sessions out.
    public static func endSession(id: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.delete, APIRoutes.endSession.path(id))
    }

    /// `DELETE /v1/users/me/sessions`: sign out every session but this one.
    public static let endOtherSessions = AuthenticatedEndpoint<EmptyResponse>(
        .delete, APIRoutes.endOtherSessions.template)

    /// `GET /v1/users/me/export`: everything of yours, as the bytes of a ZIP archive.
    public static let exportAccount = AuthenticatedEndpoint<Data>(
        .get, APIRoutes.exportAccount.template, cachePolicy: .disabled)

    /// `DELETE /v1/users/me`: delete your account for good (the password is asked again). Never
    /// retried: a wrong password counts toward the sign-in throttle.
    public static func deleteAccount(password: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(
            .delete, APIRoutes.deleteAccount.template, parameters: .json(DeleteAccountRequest(password: password)),
            retryPolicy: .never)
    }
}
