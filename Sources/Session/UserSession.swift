import BazaarAPI
import Networking

/// Everything that exists while one user is signed in: their model controller, the authenticated
/// controller that carries their tokens, and the way out.
public struct UserSession: Sendable {
    /// The signed-in user's id (also their cache partition).
    public let userID: String
    /// The signed-in user, never optional.
    public let user: UserModelController
    /// Sends the user's authenticated requests.
    public let network: AuthenticatedNetworkController
    /// Sends public requests (shared cache partition).
    public let publicNetwork: NonAuthenticatedNetworkController
    let cache: HTTPCache?

    /// What a logout managed to do.
    public struct LogoutOutcome: Sendable, Equatable {
        /// Whether the server revoked the session's refresh tokens (false when it could not be reached).
        public var revokedOnServer: Bool
    }

    /// Saves tokens a refresh could not write to the token store; throws while the store still
    /// refuses them (they stay in use in memory until the app exits).
    public func saveUnsavedTokens() async throws(TokenSaveFailure) {
        try await network.session.saveUnsavedTokens()
    }

    /// Ends the session: revokes it on the server when possible, then always deletes the stored
    /// tokens and wipes this user's cache partition, so nothing of theirs outlives the session.
    @discardableResult
    public func logout() async -> LogoutOutcome {
        var revoked = false
        if await !network.session.hasEnded {
            do throws(NetworkError) {
                _ = try await network.request(BazaarEndpoints.logout)
                revoked = true
            } catch {
                revoked = false
            }
        }
        await network.session.invalidate()
        cache?.removeAll(partition: userID)
        return LogoutOutcome(revokedOnServer: revoked)
    }

    /// Forgets the session here after the server ended it for good (the account was deleted):
    /// deletes the stored tokens and wipes this user's cache partition, asking the server nothing.
    public func forget() async {
        await network.session.invalidate()
        cache?.removeAll(partition: userID)
    }
}
