import BazaarAPI
import Foundation
import Networking

/// Starts sessions: after a login or registration, or at launch from stored tokens.
///
/// It owns nothing per user; each ``UserSession`` it makes has its own refresh coordinator and cache
/// partition, and tells `onSessionEnded` (once) when the server refuses its refresh token.
public struct SessionStarter: Sendable {
    /// Sends public requests; shared by every session.
    public let publicNetwork: NonAuthenticatedNetworkController
    /// Registers and logs in.
    public let loginPerformer: LoginPerformer
    private let client: APIClient
    private let tokenStore: any TokenStore
    private let refreshMargin: Duration
    private let now: @Sendable () -> Date
    private let onSessionEnded: @Sendable (_ userID: String) async -> Void
    private let onSessionStarted: @Sendable (UserSession) async -> Void

    /// Makes a starter for the server `client` talks to.
    ///
    /// - Parameters:
    ///   - client: the client every request goes through.
    ///   - tokenStore: where the session's tokens are kept between launches.
    ///   - refreshMargin: how close to expiry an access token is refreshed before use.
    ///   - now: the clock token expiry is judged by.
    ///   - onSessionEnded: called once per session when its refresh token is refused.
    ///   - onSessionStarted: called with every session this starter makes (to save its unsaved
    ///     tokens before the app exits, say).
    public init(
        client: APIClient, tokenStore: any TokenStore, refreshMargin: Duration = .seconds(30),
        now: @escaping @Sendable () -> Date = { Date() },
        onSessionEnded: @escaping @Sendable (_ userID: String) async -> Void = { _ in },
        onSessionStarted: @escaping @Sendable (UserSession) async -> Void = { _ in }
    ) {
        self.client = client
        self.tokenStore = tokenStore
        self.refreshMargin = refreshMargin
        self.now = now
        self.onSessionEnded = onSessionEnded
        self.onSessionStarted = onSessionStarted
        publicNetwork = NonAuthenticatedNetworkController(client: client)
        loginPerformer = LoginPerformer(network: publicNetwork)
    }

    /// Logs in and starts a session; the tokens are stored.
    public func login(username: String, password: String) async throws(NetworkError) -> UserSession {
        try await start(with: try await loginPerformer.login(username: username, password: password))
    }

    /// Registers, then starts a session; the tokens are stored.
    public func register(username: String, password: String, displayName: String) async throws(NetworkError)
        -> UserSession
    {
        try await start(
            with: try await loginPerformer.register(username: username, password: password, displayName: displayName))
    }

    /// Resumes the stored session, if any: loads the user with the stored tokens (refreshing them if
    /// needed). Returns `nil` when signed out; throws `NetworkError/sessionExpired` when the stored
    /// session was refused, and the network's error when the server cannot be reached.
    ///
    /// - Parameter lastKnownUser: the user this device last saw signed in; when given and the server
    ///   cannot be reached, the session resumes offline with that user (work such as queueing a
    ///   message goes on, and the tokens are checked on the next request that reaches the server).
    public func restore(lastKnownUser: User? = nil) async throws(NetworkError) -> UserSession? {
        let stored: AuthTokens?
        do {
            stored = try await tokenStore.load()
        } catch {
            // Unreadable tokens are as good as none: start signed out. If even the delete fails,
            // the next launch meets the same file and lands here again, so nothing worse follows.
            try? await tokenStore.clear()
            return nil
        }
        guard let stored else { return nil }
        let pending = PendingUser()
        let network = makeNetwork(tokens: stored, partition: nil, pending: pending)
        let user: User
        do throws(NetworkError) {
            // Not cached: the user's partition is not known until this answer arrives.
            user = try await network.request(
                AuthenticatedEndpoint<User>(.get, APIRoutes.me.template, cachePolicy: .disabled))
        } catch {
            guard let lastKnownUser, error.isUnreachable else { throw error }
            user = lastKnownUser
        }
        await pending.set(user.id)
        let partitioned = AuthenticatedNetworkController(
            client: client, session: network.session, cachePartition: user.id)
        return await makeSession(user: user, network: partitioned)
    }

    /// Starts a session for an answer from register or login.
    public func start(with response: AuthResponse) async throws(NetworkError) -> UserSession {
        let tokens = AuthTokens(response.tokens)
        do {
            try await tokenStore.save(tokens)
        } catch {
            throw .transport(reason: "could not store the session: \(error)")
        }
        let pending = PendingUser()
        await pending.set(response.user.id)
        let network = makeNetwork(tokens: tokens, partition: response.user.id, pending: pending)
        return await makeSession(user: response.user, network: network)
    }

    private func makeNetwork(tokens: AuthTokens, partition: String?, pending: PendingUser)
        -> AuthenticatedNetworkController
    {
        let onSessionEnded = self.onSessionEnded
        let cache = client.performer.cache
        let coordinator = TokenRefreshCoordinator(
            tokens: tokens, refresher: BazaarTokenRefresher(network: publicNetwork), store: tokenStore,
            margin: refreshMargin, now: now,
            onSessionEnded: {
                let userID = await pending.userID
                if let userID { cache?.removeAll(partition: userID) }
                await onSessionEnded(userID ?? "")
            })
        return AuthenticatedNetworkController(
            client: client, session: coordinator, cachePartition: partition ?? "pending-\(UUID().uuidString)")
    }

    private func makeSession(user: User, network: AuthenticatedNetworkController) async -> UserSession {
        let session = UserSession(
            userID: user.id, user: UserModelController(user: user, loader: UserLoader(network: network)),
            network: network, publicNetwork: publicNetwork, cache: client.performer.cache)
        await onSessionStarted(session)
        return session
    }
}

/// The id of a session's user, known once the user has loaded (restoring reads it from the server).
actor PendingUser {
    private(set) var userID: String?
    func set(_ id: String) { userID = id }
}
