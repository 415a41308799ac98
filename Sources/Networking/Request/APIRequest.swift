import Foundation

/// A typed description of one call to an HTTP API (seed 004's `APIRequest`).
///
/// Only `Resource` and `path` are required; everything else has a sensible default:
///
/// ```swift
/// struct GetProduct: APIRequest {
///     typealias Resource = Product
///     var id: String
///     var path: String { "/v1/products/\(id)" }
/// }
/// let product = try await client.send(GetProduct(id: "p1"))
/// ```
public protocol APIRequest: Sendable {
    /// What a successful response decodes to; ``EmptyResponse`` when no body is expected, `Data`
    /// for the raw bytes.
    associatedtype Resource: Decodable & Sendable

    /// The path below the client's base URL, such as `/v1/products`; unsafe characters are escaped.
    var path: String { get }
    /// The HTTP method; `GET` by default.
    var method: HTTPMethod { get }
    /// The query and body; none by default.
    var parameters: RequestParameters { get }
    /// Extra header fields; none by default.
    var headers: [String: String] { get }
    /// How this request may use the response cache; ``CachePolicy/useProtocol`` by default.
    var cachePolicy: CachePolicy { get }
    /// How this request is retried; `nil` (the default) uses the client's policy.
    var retryPolicy: RetryPolicy? { get }
    /// How long one attempt may take (connecting, sending, and the whole answer); `nil` (the default) uses the
    /// client's timeout.
    var timeout: Duration? { get }
    /// How long the request may take in all, every attempt and wait between them included; `nil` (the default)
    /// uses the client's deadline.
    var deadline: Duration? { get }

    /// Turns a successful response into a `Resource`.
    func decode(_ response: TransportResponse, using decoder: JSONDecoder) throws -> Resource
}

extension APIRequest {
    /// `GET`.
    public var method: HTTPMethod { .get }
    /// No query, no body.
    public var parameters: RequestParameters { .none }
    /// No extra headers.
    public var headers: [String: String] { [:] }
    /// HTTP caching semantics.
    public var cachePolicy: CachePolicy { .useProtocol }
    /// The client's retry policy.
    public var retryPolicy: RetryPolicy? { nil }
    /// The client's timeout.
    public var timeout: Duration? { nil }
    /// The client's deadline.
    public var deadline: Duration? { nil }

    /// Decodes the body as JSON; for ``EmptyResponse`` ignores the body, for `Data` returns it as is.
    ///
    /// The two special cases are checked at run time so they also hold for generic request types,
    /// whose witness is chosen before `Resource` is known. A fresh cache hit reuses the value
    /// decoded from the same stored body before (see ``TransportResponse/decodeJSON(_:using:)``).
    public func decode(_ response: TransportResponse, using decoder: JSONDecoder) throws -> Resource {
        if Resource.self == EmptyResponse.self, let empty = EmptyResponse() as? Resource {
            return empty
        }
        if Resource.self == Data.self, let data = response.body as? Resource {
            return data
        }
        return try response.decodeJSON(Resource.self, using: decoder)
    }
}

/// The `Resource` of a request that expects no body (a `204 No Content`, for one).
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// The only value.
    public init() {}
}
