import HTTPTypes

/// Runs the performer's ``RequestInterceptor``s: each adapts the request in order, then the default
/// `User-Agent` is added; each sees the final answer in reverse order.
struct InterceptorLayer<Next: ExchangeLayer>: ExchangeLayer {
    /// Run in order before sending and in reverse after receiving.
    let interceptors: [any RequestInterceptor]
    /// Set on a request that carries no `User-Agent`; `nil` for none.
    let userAgent: String?
    /// The cache stage.
    let next: Next

    /// Adapts `request`, sends it on, and shows the answer to every interceptor.
    func exchange(_ request: TransportRequest, _ context: ExchangeContext) async throws(NetworkError) -> ExchangeResult {
        var request = request
        for interceptor in interceptors {
            do {
                request = try await interceptor.adapt(request)
            } catch let error as NetworkError {
                throw error
            } catch {
                throw .requestBuildFailed(.interceptorFailed(reason: "\(error)"))
            }
        }
        if let userAgent, request.head.headerFields[.userAgent] == nil {
            request.head.headerFields[.userAgent] = userAgent
        }
        let result = try await next.exchange(request, context)
        for interceptor in interceptors.reversed() {
            await interceptor.didReceive(result.response, for: request)
        }
        return result
    }
}
