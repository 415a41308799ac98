/// Supplies a request's `Authorization` value, and a newer one after the server refused it.
///
/// The performer owns the 401 replay: it asks for a value before sending and, after a `401`, asks
/// once for a newer one and sends again, without rebuilding the request or running interceptors and
/// the cache a second time. ``TokenRefreshCoordinator`` is the kit's authorizer.
public protocol RequestAuthorizer: Sendable {
    /// The `Authorization` value to send now.
    func authorization() async throws(NetworkError) -> String
    /// A value to replay with after the server refused `rejected` with a `401`.
    func authorization(replacing rejected: String) async throws(NetworkError) -> String
}

extension TokenRefreshCoordinator: RequestAuthorizer {
    /// The current tokens' value, refreshed first when they are about to expire.
    public func authorization() async throws(NetworkError) -> String {
        try await validTokens().authorizationValue
    }

    /// The value of tokens newer than `rejected`'s, refreshing once if there are none yet.
    public func authorization(replacing rejected: String) async throws(NetworkError) -> String {
        try await tokens(replacingAuthorization: rejected).authorizationValue
    }
}
