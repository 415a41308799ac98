import HTTPTypes

/// Adds the request's `Authorization` header from its ``RequestAuthorizer``, and after a `401`
/// replays the request once with newer credentials, from the retry stage down.
///
/// A request without an authorizer passes through untouched.
struct AuthorizationLayer<Next: ExchangeLayer>: ExchangeLayer {
    /// The retry stage.
    let next: Next

    /// Authorizes `request`, sends it, and replays it once if the credentials were refused.
    func exchange(_ request: consuming TransportRequest, _ context: ExchangeContext) async throws(NetworkError)
        -> ExchangeResult
    {
        guard let authorizer = context.options.authorizer else { return try await next.exchange(request, context) }
        let authorization = try await authorizer.authorizationField()
        // A field the caller set is replaced, as the subscript's setter would, without checking
        // the value's bytes again.
        if request.head.headerFields.contains(.authorization) { request.head.headerFields[.authorization] = nil }
        request.head.headerFields.append(authorization)
        let first = try await next.exchange(copy request, context)
        guard first.response.status == .unauthorized else { return first }
        request.head.headerFields[.authorization] = try await authorizer.authorization(replacing: authorization.value)
        var replayed = try await next.exchange(request, context)
        replayed.source = .network(attempts: first.attempts + replayed.attempts)
        return replayed
    }
}
