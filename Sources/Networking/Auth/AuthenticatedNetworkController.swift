import HTTPTypes

/// Sends endpoints that need a signed-in user, with tokens kept fresh (seed 001/003's
/// `AuthenticatedNetworkController`).
///
/// Every request asks the session's ``TokenRefreshCoordinator`` for valid tokens (refreshing them
/// before expiry), and a request refused with 401 is replayed once with newer tokens. Responses are
/// cached in the user's own partition, so nothing of one user is ever served to another.
public struct AuthenticatedNetworkController: Sendable {
    /// The client requests go through, with the user's cache partition.
    public let client: APIClient
    /// Keeps the session's tokens fresh.
    public let session: TokenRefreshCoordinator

    /// Makes a controller for one user's session.
    ///
    /// - Parameters:
    ///   - client: the client requests go through.
    ///   - session: keeps the session's tokens fresh.
    ///   - cachePartition: the partition for this user's responses (their id, say).
    public init(client: APIClient, session: TokenRefreshCoordinator, cachePartition: String) {
        var client = client
        client.cachePartition = cachePartition
        self.client = client
        self.session = session
    }

    /// Sends `endpoint` with valid credentials and returns its decoded resource.
    ///
    /// - Throws: ``NetworkError/sessionExpired`` once the session has ended, or the request's own error.
    public func request<Resource>(
        _ endpoint: AuthenticatedEndpoint<Resource>, progress: ProgressHandler? = nil
    ) async throws(NetworkError) -> Resource {
        // The performer adds the credentials and owns the one replay after a 401.
        try await client.send(AuthorizedRequest<Resource>(spec: endpoint.spec), progress: progress, authorizer: session)
    }

    /// Sends `endpoint` and calls `handler` with the outcome (the seeds' `then:` form).
    @discardableResult
    public func request<Resource>(
        _ endpoint: AuthenticatedEndpoint<Resource>, then handler: @escaping NetworkResultHandler<Resource>
    ) -> Task<Void, Never> {
        Task {
            do throws(NetworkError) {
                handler(.success(try await request(endpoint)))
            } catch {
                handler(.failure(error))
            }
        }
    }
}
