/// Sends endpoints that need no signed-in user (seed 001/003's `NonAuthenticatedNetworkController`).
///
/// It accepts only ``NonAuthenticatedEndpoint``s: passing an ``AuthenticatedEndpoint`` does not compile.
public struct NonAuthenticatedNetworkController: Sendable {
    /// The client requests go through; its cache partition is the shared one.
    public let client: APIClient

    /// Makes a controller over `client`.
    public init(client: APIClient) {
        var client = client
        client.cachePartition = nil
        self.client = client
    }

    /// Sends `endpoint` and returns its decoded resource.
    public func request<Resource>(
        _ endpoint: NonAuthenticatedEndpoint<Resource>, progress: ProgressHandler? = nil
    ) async throws(NetworkError) -> Resource {
        try await client.send(endpoint, progress: progress)
    }

    /// Sends `endpoint` and calls `handler` with the outcome (the seeds' `then:` form).
    @discardableResult
    public func request<Resource>(
        _ endpoint: NonAuthenticatedEndpoint<Resource>, then handler: @escaping NetworkResultHandler<Resource>
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
