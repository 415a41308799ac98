import HTTPTypes

/// Supplies a request's `Authorization` value, and a newer one after the server refused it.
///
/// The performer owns the 401 replay: it asks for a field before sending and, after a `401`, asks
/// once for a newer value and sends again, without rebuilding the request or running interceptors
/// and the cache a second time. ``TokenRefreshCoordinator`` is the kit's authorizer.
public protocol RequestAuthorizer: Sendable {
    /// The `Authorization` value to send now.
    func authorization() async throws(NetworkError) -> String
    /// A value to replay with after the server refused `rejected` with a `401`.
    func authorization(replacing rejected: String) async throws(NetworkError) -> String
    /// The `Authorization` field to send now: what ``authorization()`` returns, as a field.
    ///
    /// The performer asks for this one on every request. The default makes the field from
    /// ``authorization()``, which checks every byte of the value; an authorizer that hands out
    /// the same credentials many times can keep the field it made and return it as it is.
    func authorizationField() async throws(NetworkError) -> HTTPField
}

extension RequestAuthorizer {
    /// ``authorization()`` as a field, made anew on every call.
    public func authorizationField() async throws(NetworkError) -> HTTPField {
        HTTPField(name: .authorization, value: try await authorization())
    }
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

    /// The current tokens' field, refreshed first when they are about to expire; made once per
    /// access token and handed out as it is until the token changes.
    public func authorizationField() async throws(NetworkError) -> HTTPField {
        field(for: try await validTokens())
    }
}
