import BazaarAPI
import BazaarDomain
import Foundation
import Hummingbird

/// An error that knows its HTTP answer: a status, a `snake_case` code and a sentence.
///
/// This is the one place errors become responses (the `{"error": {"code", "message"}}` body);
/// ``ErrorMiddleware`` turns every other error into one of these first.
public struct APIError: Error, HTTPResponseError, Sendable, Equatable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The machine-readable code.
    public var code: String
    /// The human sentence (never containing secrets).
    public var message: String
    /// Extra headers, such as `Retry-After` or `WWW-Authenticate`.
    public var headers: HTTPFields

    /// Creates an error.
    public init(status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// The JSON error response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        makeResponse()
    }

    /// The JSON error response, without needing a request.
    func makeResponse() -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        let data = (try? BazaarJSON.makeEncoder().encode(ErrorBody(code: code, message: message))) ?? Data()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension APIError {
    /// 400: the request cannot be understood.
    static func badRequest(_ code: String, _ message: String) -> APIError {
        APIError(status: .badRequest, code: code, message: message)
    }

    /// 401: no valid credentials; tells the client to use Bearer.
    static func unauthorized(_ code: String, _ message: String) -> APIError {
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = "Bearer"
        return APIError(status: .unauthorized, code: code, message: message, headers: headers)
    }

    /// 404: missing, or not the caller's (the same answer on purpose).
    static func notFound(_ what: String) -> APIError {
        APIError(status: .notFound, code: "not_found", message: "\(what) was not found.")
    }

    /// 409: conflicts with what exists.
    static func conflict(_ code: String, _ message: String) -> APIError {
        APIError(status: .conflict, code: code, message: message)
    }

    /// 413: the body is over the route's limit.
    static func tooLarge(limit: Int) -> APIError {
        APIError(
            status: .contentTooLarge, code: "body_too_large", message: "The request body is larger than \(limit) bytes."
        )
    }

    /// 415: the body is not of a media type this route takes.
    static func unsupportedMediaType(_ expected: String) -> APIError {
        APIError(
            status: .unsupportedMediaType, code: "unsupported_media_type",
            message: "The request body must be \(expected).")
    }

    /// 422: a field breaks its rule.
    static func invalidField(_ field: String, _ rule: String) -> APIError {
        APIError(status: .unprocessableContent, code: "invalid_field", message: "\(field) \(rule).")
    }

    /// 429: too many attempts; try again after `seconds`.
    static func throttled(retryAfter seconds: Int) -> APIError {
        var headers = HTTPFields()
        headers[.retryAfter] = String(seconds)
        return APIError(
            status: .tooManyRequests, code: "too_many_attempts",
            message: "Too many failed attempts; try again in \(seconds) seconds.", headers: headers)
    }

    /// 429: over a ``QuotaPolicy`` limit; try again after `seconds`.
    static func rateLimited(_ action: QuotaAction, retryAfter seconds: Int) -> APIError {
        var headers = HTTPFields()
        headers[.retryAfter] = String(seconds)
        return APIError(
            status: .tooManyRequests, code: "rate_limited",
            message: "Too many \(action.plural); try again in \(seconds) seconds.", headers: headers)
    }

    /// The answer to a rule's refusal: each ``DomainError`` case has its one status and code.
    init(_ error: DomainError) {
        switch error {
        case .badRequest(let code, let message): self = .badRequest(code, message)
        case .invalidField(let field, let rule): self = .invalidField(field, rule)
        case .unprocessable(let code, let message):
            self = APIError(status: .unprocessableContent, code: code, message: message)
        case .unauthorized(let code, let message): self = .unauthorized(code, message)
        case .forbidden(let code, let message): self = APIError(status: .forbidden, code: code, message: message)
        case .throttled(let retryAfter): self = .throttled(retryAfter: retryAfter)
        case .notFound(let what): self = .notFound(what)
        case .conflict(let code, let message): self = .conflict(code, message)
        case .rateLimited(let action, let retryAfter): self = .rateLimited(action, retryAfter: retryAfter)
        case .busy(let reason, let retryAfter): self = .unavailable(reason, retryAfter: retryAfter)
        }
    }

    /// 503: the database cannot be reached now, or the server is at a bound of its own (password
    /// checks); try again after a moment.
    static func unavailable(_ reason: String, retryAfter seconds: Int = 1) -> APIError {
        var headers = HTTPFields()
        headers[.retryAfter] = String(seconds)
        return APIError(
            status: .serviceUnavailable, code: "service_unavailable",
            message: "The service is unavailable for a moment (\(reason)); try again shortly.", headers: headers)
    }
}
