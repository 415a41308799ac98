/// One use of the ``HTTPCache`` per exchange: serve a fresh response without sending, or send
/// (conditionally, for a stale one) and then store, revalidate or invalidate from the answer.
///
/// With no cache, requests pass through untouched.
struct CacheLayer<Next: ExchangeLayer>: ExchangeLayer {
    /// The response cache; `nil` for none.
    let cache: HTTPCache?
    /// The authorization stage.
    let next: Next

    /// Serves `request` from the cache, or sends it and settles the cache from the answer.
    func exchange(_ request: consuming TransportRequest, _ context: ExchangeContext) async throws(NetworkError)
        -> ExchangeResult
    {
        guard let cache else { return try await next.exchange(request, context) }
        let exchange = cache.begin(
            request, partition: context.options.cachePartition, policy: context.options.cachePolicy)
        switch exchange.plan {
        case .serve(let response):
            return ExchangeResult(response: response, source: .cache, sent: nil)
        case .send(let outgoing):
            var result = try await next.exchange(outgoing, context)
            result.response = exchange.complete(with: result.response)
            if exchange.isRevalidation { result.source = .revalidation(attempts: result.attempts) }
            return result
        }
    }
}
