import HTTPTypes

/// Runs the performer's ``RequestInterceptor``s: each adapts the request in order, then the default
/// `User-Agent` is added; each sees the final answer in reverse order.
struct InterceptorLayer<Next: ExchangeLayer>: ExchangeLayer {
    /// Run in order before sending and in reverse after receiving.
    let interceptors: [any RequestInterceptor]
    /// Set on a request that carries no `User-Agent`; `nil` for none.
    let userAgent: HTTPField?
    /// The cache stage.
    let next: Next

    /// Adapts `request`, sends it on, and shows the answer to every interceptor.
    func exchange(_ request: consuming TransportRequest, _ context: ExchangeContext) async throws(NetworkError)
        -> ExchangeResult
    {
        for interceptor in interceptors {
            do {
                request = try await interceptor.adapt(request)
            } catch let error as NetworkError {
                throw error
            } catch {
                throw .requestBuildFailed(.interceptorFailed(reason: "\(error)"))
            }
        }
        if let userAgent, !request.head.headerFields.contains(.userAgent) {
            request.head.headerFields.append(userAgent)
        }
        // With nothing to show the answer to, the request moves on whole: the stages below add
        // their fields to this one copy.
        guard !interceptors.isEmpty else { return try await next.exchange(request, context) }
        let result = try await next.exchange(copy request, context)
        for interceptor in interceptors.reversed() {
            await interceptor.didReceive(result.response, for: request)
        }
        return result
    }
}
