import HTTPTypes

/// The HTTP method of a request, as in seed 004, with the safety facts retry and caching rely on.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case options = "OPTIONS"

    /// Whether the method is safe (RFC 9110 §9.2.1): it asks for no change on the server.
    public var isSafe: Bool {
        switch self {
        case .get, .head, .options: true
        case .post, .put, .patch, .delete: false
        }
    }

    /// Whether sending the request twice has the same effect as once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .options, .put, .delete: true
        case .post, .patch: false
        }
    }

    /// The same method as swift-http-types spells it.
    public var httpTypesMethod: HTTPRequest.Method {
        switch self {
        case .get: .get
        case .head: .head
        case .post: .post
        case .put: .put
        case .patch: .patch
        case .delete: .delete
        case .options: .options
        }
    }
}
