import Foundation
import HTTPTypes

/// A request ready for any ``HTTPTransport``: a swift-http-types head plus an optional body.
public struct TransportRequest: Sendable {
    /// Method, scheme, authority, path with query, and header fields.
    public var head: HTTPRequest
    /// The body, if any.
    public var body: HTTPBody?

    /// Makes a request from its parts.
    public init(head: HTTPRequest, body: HTTPBody? = nil) {
        self.head = head
        self.body = body
    }

    /// The absolute URL the request goes to.
    public var url: URL? { head.url }
}

/// A response as a transport hands it back: the head and the whole body.
public struct TransportResponse: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The body bytes (empty when there were none).
    public var body: Data
    /// The cache entry's memo of the value last decoded from ``body``, for a response served from
    /// an ``HTTPCache``; `nil` otherwise (see ``decodeJSON(_:using:)``).
    var decodedValues: DecodedValueMemo?

    /// Makes a response from its parts.
    public init(head: HTTPResponse, body: Data) {
        self.head = head
        self.body = body
    }

    /// Makes a cached response whose decoded value is kept in `decodedValues`.
    init(head: HTTPResponse, body: Data, decodedValues: DecodedValueMemo) {
        self.head = head
        self.body = body
        self.decodedValues = decodedValues
    }

    /// The status code.
    public var status: HTTPResponse.Status { head.status }
    /// The header fields.
    public var headerFields: HTTPFields { head.headerFields }
}
