import BazaarAPI
import Networking

/// Refreshes tokens with Bazaar's `POST /v1/auth/refresh`, sent through the non-authenticated
/// controller: by type it can never queue behind the refresh it performs.
public struct BazaarTokenRefresher: TokenRefresher {
    private let network: NonAuthenticatedNetworkController

    /// Makes a refresher over the public controller.
    public init(network: NonAuthenticatedNetworkController) {
        self.network = network
    }

    /// Exchanges `refreshToken` for new tokens.
    public func refresh(using refreshToken: String) async throws(NetworkError) -> AuthTokens {
        AuthTokens(try await network.request(BazaarEndpoints.refresh(refreshToken)))
    }
}
