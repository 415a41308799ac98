import HTTPTypes
import Tracing

/// Opens a client span around each exchange, every retry and the cache included, and sends its
/// context on as `traceparent` (W3C Trace Context, or whatever the tracer propagates), so the
/// server's span, and the database spans under it, join the caller's trace.
///
/// The span is named by the method (OpenTelemetry's rule when no route template is known) and
/// carries `url.full` with secret query values redacted, `server.address`, `server.port`,
/// `http.response.status_code`, `http.request.resend_count` for retries, and `bazaar.cache`
/// when the answer came from the cache or was revalidated. A 5xx, or a failure, sets the error
/// status. With no tracer (the default) the request passes straight through.
struct TracingLayer<Next: ExchangeLayer>: ExchangeLayer {
    /// Where spans are made; `nil` for none.
    let tracer: (any Tracer)?
    /// The interceptor stage.
    let next: Next

    /// Sends `request` on inside a span, with the span's context in its header fields.
    func exchange(_ request: consuming TransportRequest, _ context: ExchangeContext) async throws(NetworkError)
        -> ExchangeResult
    {
        guard let tracer else { return try await next.exchange(request, context) }
        let head = request.head
        let span = tracer.startSpan(head.method.rawValue, context: ServiceContext.current ?? .topLevel, ofKind: .client)
        defer { span.end() }
        span.updateAttributes { attributes in
            attributes["http.request.method"] = head.method.rawValue
            attributes["url.full"] =
                (head.scheme ?? "http") + "://" + (head.authority ?? "")
                + Redaction.path(head.path ?? "")
            if let authority = head.authority {
                let parts = authority.split(separator: ":", maxSplits: 1)
                attributes["server.address"] = parts.first.map(String.init)
                attributes["server.port"] = parts.count == 2 ? Int(parts[1]) : nil
            }
        }
        tracer.inject(span.context, into: &request.head.headerFields, using: HTTPFieldsInjector())
        let result: ExchangeResult
        do {
            result = try await next.exchange(request, context)
        } catch {
            span.updateAttributes { $0["error.type"] = Self.errorType(error) }
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: error.description))
            throw error
        }
        let status = result.response.status.code
        span.updateAttributes { attributes in
            attributes["http.response.status_code"] = status
            if result.attempts > 1 { attributes["http.request.resend_count"] = result.attempts - 1 }
            switch result.source {
            case .cache: attributes["bazaar.cache"] = "hit"
            case .revalidation: attributes["bazaar.cache"] = "revalidated"
            case .network: break
            }
            if status >= 500 { attributes["error.type"] = "\(status)" }
        }
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
        return result
    }

    /// A short, low-cardinality name for what went wrong, as `error.type` wants.
    static func errorType(_ error: NetworkError) -> String { NetworkErrorKind.name(error) }
}

/// Writes propagation fields (`traceparent`, `tracestate`…) into a request's header fields,
/// replacing any already there, so a retried or replayed request carries one of each.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into fields: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        fields[name] = value
    }
}
