import BazaarAPI
import Networking

/// Loads users from the server (seed 001/003's `UserLoader`): stateless, one request per call.
public struct UserLoader: Sendable {
    private let network: AuthenticatedNetworkController

    /// Makes a loader over the signed-in user's controller.
    public init(network: AuthenticatedNetworkController) {
        self.network = network
    }

    /// The signed-in user, as the server has them now.
    public func loadCurrentUser() async throws(NetworkError) -> User {
        try await network.request(BazaarEndpoints.me)
    }

    /// Changes the signed-in user's display name or bio and returns the updated user.
    public func update(_ change: UpdateProfileRequest) async throws(NetworkError) -> User {
        try await network.request(BazaarEndpoints.updateMe(change))
    }

    /// Completion-handler form of ``loadCurrentUser()``.
    @discardableResult
    public func loadCurrentUser(then handler: @escaping NetworkResultHandler<User>) -> Task<Void, Never> {
        Task {
            do throws(NetworkError) {
                handler(.success(try await loadCurrentUser()))
            } catch {
                handler(.failure(error))
            }
        }
    }
}
