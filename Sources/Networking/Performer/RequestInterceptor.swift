import HTTPTypes

/// A step that can change a request before it is sent and look at the response after (seed 004's
/// promised `RequestAdapter`).
///
/// Interceptors run in order before sending and in reverse order after, like middleware. Both
/// methods have defaults, so an interceptor implements only what it needs.
public protocol RequestInterceptor: Sendable {
    /// Returns the request to send; throw to stop the request (it fails with `requestBuildFailed`).
    func adapt(_ request: TransportRequest) async throws -> TransportRequest
    /// Sees the final response (after retries and cache), whatever its status.
    func didReceive(_ response: TransportResponse, for request: TransportRequest) async
}

extension RequestInterceptor {
    /// Leaves the request as it is.
    public func adapt(_ request: TransportRequest) async throws -> TransportRequest { request }
    /// Does nothing.
    public func didReceive(_ response: TransportResponse, for request: TransportRequest) async {}
}

/// Adds header fields to every request that does not already set them (a `User-Agent`, say).
public struct HeaderInterceptor: RequestInterceptor {
    private let fields: HTTPFields

    /// Adds `fields` where the request has no field of the same name.
    public init(_ fields: HTTPFields) {
        self.fields = fields
    }

    /// Adds the missing fields.
    public func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        var request = request
        for field in fields where request.head.headerFields[field.name] == nil {
            request.head.headerFields.append(field)
        }
        return request
    }
}
