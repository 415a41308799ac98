/// The innermost stage: one attempt on the transport.
struct TransportLayer: ExchangeLayer {
    /// Sends the bytes.
    let transport: any HTTPTransport

    /// Sends `request` once, bounded by the context's transfer options.
    func exchange(_ request: consuming TransportRequest, _ context: ExchangeContext) async throws(NetworkError)
        -> ExchangeResult
    {
        let response = try await transport.send(request, options: context.transfer)
        return ExchangeResult(response: response, source: .network(attempts: 1), sent: request)
    }
}
