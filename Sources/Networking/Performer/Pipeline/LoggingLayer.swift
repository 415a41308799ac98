import HTTPTypes
import Logging

/// The outermost stage: logs each exchange at `debug` (method, path, status or failure, duration,
/// how it was answered) and the redacted headers and body at `trace`. Builds no text when those
/// levels are off.
struct LoggingLayer<Next: ExchangeLayer>: ExchangeLayer {
    /// Where exchanges are logged.
    let logger: Logger
    /// The interceptor stage.
    let next: Next

    /// Passes `request` on and logs what came of it.
    func exchange(_ request: consuming TransportRequest, _ context: ExchangeContext) async throws(NetworkError)
        -> ExchangeResult
    {
        guard logger.logLevel <= .debug else { return try await next.exchange(request, context) }
        let line = "\(request.head.method.rawValue) \(Redaction.path(request.head.path ?? ""))"
        let result: ExchangeResult
        do {
            result = try await next.exchange(copy request, context)
        } catch {
            logger.debug(
                "\(line) failed",
                metadata: ["duration_ms": "\(elapsed(since: context))", "error": "\(error.description)"])
            throw error
        }
        logger.debug(
            "\(line) → \(result.response.status.code)",
            metadata: ["duration_ms": "\(elapsed(since: context))", "note": "\(note(for: result.source))"])
        if logger.logLevel <= .trace {
            let sentFields: HTTPFields
            if let sent = result.sent {
                sentFields = sent.head.headerFields
            } else {
                sentFields = request.head.headerFields
            }
            logger.trace(
                "exchange",
                metadata: [
                    "request_headers": "\(Redaction.headers(sentFields))",
                    "response_headers": "\(Redaction.headers(result.response.headerFields))",
                    "response_body": "\(Redaction.body(result.response.body))",
                    "curl": "\(result.sent.map { CurlCommand($0).description } ?? "(answered from the cache)")",
                ])
        }
        return result
    }

    private func elapsed(since context: ExchangeContext) -> Int64 {
        (ContinuousClock.now - context.started).milliseconds
    }

    private func note(for source: ExchangeResult.Source) -> String {
        switch source {
        case .cache: "cache hit"
        case .network(let attempts): "attempts: \(attempts)"
        case .revalidation(let attempts): "revalidated, attempts: \(attempts)"
        }
    }
}
