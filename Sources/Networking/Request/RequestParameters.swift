import Foundation

/// What a request carries besides its path: a URL query and, optionally, a body (seed 004's
/// `RequestParams` with its `.url` and `.body` cases, grown to every common body encoding).
public struct RequestParameters: Sendable {
    /// Pairs appended to the URL's query.
    public var query: QueryParameters
    /// The body, if the request has one.
    public var body: RequestBody?

    /// Makes parameters from a query and an optional body.
    public init(query: QueryParameters = QueryParameters(), body: RequestBody? = nil) {
        self.query = query
        self.body = body
    }

    /// No query and no body.
    public static let none = RequestParameters()

    /// Parameters in the URL query only (seed 004's `.url`).
    public static func url(_ query: QueryParameters) -> RequestParameters {
        RequestParameters(query: query)
    }

    /// A body, optionally with a query as well (seed 004's `.body`).
    public static func body(_ body: RequestBody, query: QueryParameters = QueryParameters()) -> RequestParameters {
        RequestParameters(query: query, body: body)
    }

    /// Any `Encodable` value as a JSON body.
    public static func json(_ value: some Encodable & Sendable, query: QueryParameters = QueryParameters())
        -> RequestParameters
    {
        RequestParameters(query: query, body: .json(value))
    }

    /// Fields as an `application/x-www-form-urlencoded` body.
    public static func form(_ fields: QueryParameters) -> RequestParameters {
        RequestParameters(body: .form(fields))
    }

    /// A `multipart/form-data` body.
    public static func multipart(_ form: MultipartFormData) -> RequestParameters {
        RequestParameters(body: .multipart(form))
    }

    /// Raw bytes with their media type (an image upload, for one).
    public static func raw(_ data: Data, mediaType: MediaType) -> RequestParameters {
        RequestParameters(body: .raw(data, mediaType))
    }
}

/// A request body before encoding; ``URLRequestBuilder`` turns it into bytes and a `Content-Type`.
public enum RequestBody: Sendable {
    /// A value encoded as JSON with the builder's encoder.
    case json(any Encodable & Sendable)
    /// Fields encoded as `application/x-www-form-urlencoded` (spaces as `+`, the rest RFC 3986).
    case form(QueryParameters)
    /// A multipart form; file parts are streamed from disk.
    case multipart(MultipartFormData)
    /// Bytes sent as they are, with their media type.
    case raw(Data, MediaType)
    /// A file sent as it is, streamed from disk, with its media type.
    case file(URL, MediaType)
}
