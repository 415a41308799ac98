/// The parts every endpoint shares, whichever controller may send it.
public struct EndpointDescription: Sendable {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path below the server's base URL.
    public var path: String
    /// The query and body.
    public var parameters: RequestParameters
    /// Extra header fields.
    public var headers: [String: String]
    /// How the response cache may be used.
    public var cachePolicy: CachePolicy
    /// How the request is retried; `nil` for the controller's policy.
    public var retryPolicy: RetryPolicy?
    /// How long one attempt may take (connecting, sending, and the whole answer); `nil` for the controller's timeout.
    public var timeout: Duration?
    /// How long the request may take in all, every attempt and wait between them included; `nil` for the
    /// controller's deadline.
    public var deadline: Duration?

    /// Describes an endpoint.
    public init(
        _ method: HTTPMethod = .get, _ path: String, parameters: RequestParameters = .none,
        headers: [String: String] = [:], cachePolicy: CachePolicy = .useProtocol, retryPolicy: RetryPolicy? = nil,
        timeout: Duration? = nil, deadline: Duration? = nil
    ) {
        self.method = method
        self.path = path
        self.parameters = parameters
        self.headers = headers
        self.cachePolicy = cachePolicy
        self.retryPolicy = retryPolicy
        self.timeout = timeout
        self.deadline = deadline
    }
}

/// An endpoint anyone may call: only ``NonAuthenticatedNetworkController`` sends it.
///
/// Its authenticated sibling is a different type, so a protected endpoint can never be sent without
/// a session by mistake: the compiler refuses (seed 001/003).
public struct NonAuthenticatedEndpoint<Resource: Decodable & Sendable>: APIRequest {
    /// What is sent.
    public var spec: EndpointDescription

    /// Describes an endpoint.
    public init(
        _ method: HTTPMethod = .get, _ path: String, parameters: RequestParameters = .none,
        headers: [String: String] = [:], cachePolicy: CachePolicy = .useProtocol, retryPolicy: RetryPolicy? = nil,
        timeout: Duration? = nil, deadline: Duration? = nil
    ) {
        spec = EndpointDescription(
            method, path, parameters: parameters, headers: headers, cachePolicy: cachePolicy, retryPolicy: retryPolicy,
            timeout: timeout, deadline: deadline)
    }

    /// The HTTP method.
    public var method: HTTPMethod { spec.method }
    /// The path below the server's base URL.
    public var path: String { spec.path }
    /// The query and body.
    public var parameters: RequestParameters { spec.parameters }
    /// Extra header fields.
    public var headers: [String: String] { spec.headers }
    /// How the response cache may be used.
    public var cachePolicy: CachePolicy { spec.cachePolicy }
    /// How the request is retried.
    public var retryPolicy: RetryPolicy? { spec.retryPolicy }
    /// How long one attempt may take.
    public var timeout: Duration? { spec.timeout }
    /// How long the request may take in all.
    public var deadline: Duration? { spec.deadline }
}

/// An endpoint that needs a signed-in user: only ``AuthenticatedNetworkController`` sends it.
///
/// It is not an ``APIRequest``, so it cannot be handed to a plain ``APIClient`` either: the only way
/// out is through the controller, which adds fresh credentials.
public struct AuthenticatedEndpoint<Resource: Decodable & Sendable>: Sendable {
    /// What is sent, before credentials are added.
    public var spec: EndpointDescription

    /// Describes an endpoint.
    public init(
        _ method: HTTPMethod = .get, _ path: String, parameters: RequestParameters = .none,
        headers: [String: String] = [:], cachePolicy: CachePolicy = .useProtocol, retryPolicy: RetryPolicy? = nil,
        timeout: Duration? = nil, deadline: Duration? = nil
    ) {
        spec = EndpointDescription(
            method, path, parameters: parameters, headers: headers, cachePolicy: cachePolicy, retryPolicy: retryPolicy,
            timeout: timeout, deadline: deadline)
    }
}

/// An authenticated endpoint as an ``APIRequest``; the performer adds its credentials.
struct AuthorizedRequest<Resource: Decodable & Sendable>: APIRequest {
    var spec: EndpointDescription

    var method: HTTPMethod { spec.method }
    var path: String { spec.path }
    var parameters: RequestParameters { spec.parameters }
    var headers: [String: String] { spec.headers }
    var cachePolicy: CachePolicy { spec.cachePolicy }
    var retryPolicy: RetryPolicy? { spec.retryPolicy }
    var timeout: Duration? { spec.timeout }
    var deadline: Duration? { spec.deadline }
}
