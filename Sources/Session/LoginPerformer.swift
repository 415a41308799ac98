import BazaarAPI
import Networking

/// Registers and logs in: credentials in, a user and tokens out (seed 001/003's `LoginPerformer`).
///
/// Stateless: it only talks to the public endpoints; what to do with the tokens is the caller's
/// business (usually ``SessionStarter``).
public struct LoginPerformer: Sendable {
    private let network: NonAuthenticatedNetworkController

    /// Makes a performer over the public controller.
    public init(network: NonAuthenticatedNetworkController) {
        self.network = network
    }

    /// Creates an account.
    ///
    /// - Throws: `NetworkError` with `serverCode` `username_taken` (409) or a field rule (422).
    public func register(username: String, password: String, displayName: String) async throws(NetworkError)
        -> AuthResponse
    {
        try await network.request(
            BazaarEndpoints.register(RegisterRequest(username: username, password: password, displayName: displayName)))
    }

    /// Logs in to an existing account.
    ///
    /// - Throws: `NetworkError` with status 401 for a wrong username or password, 429 when throttled.
    public func login(username: String, password: String) async throws(NetworkError) -> AuthResponse {
        try await network.request(BazaarEndpoints.login(LoginRequest(username: username, password: password)))
    }

    /// Completion-handler form of ``login(username:password:)``.
    @discardableResult
    public func login(username: String, password: String, then handler: @escaping NetworkResultHandler<AuthResponse>)
        -> Task<Void, Never>
    {
        Task {
            do throws(NetworkError) {
                handler(.success(try await login(username: username, password: password)))
            } catch {
                handler(.failure(error))
            }
        }
    }
}
