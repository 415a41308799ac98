import Foundation
import HTTPTypes
import Networking

/// What a ``StubTransport`` answers a matched request with: a response, or a failure as a real
/// transport would throw it. Statuses are plain numbers, so a test needs no HTTP types import.
public enum StubResponse: Sendable {
    /// An answer with this status code, these header fields and this body.
    case response(status: Int, headerFields: [String: String], body: Data)
    /// No answer: the transport throws `error` (`.noConnection`, `.timedOut`, …).
    case failure(NetworkError)

    /// A `200` (or `status`) with `value` encoded as JSON by `encoder` (ISO 8601 dates by default,
    /// as the kit's `APIClient` decodes them).
    ///
    /// - Throws: the encoder's error for a value it cannot encode.
    public static func json(
        _ value: some Encodable, status: Int = 200, headerFields: [String: String] = [:],
        encoder: JSONEncoder = StubResponse.isoEncoder
    ) throws -> StubResponse {
        var fields = headerFields
        if !fields.keys.contains(where: { $0.lowercased() == "content-type" }) {
            fields["Content-Type"] = "application/json"
        }
        return .response(status: status, headerFields: fields, body: try encoder.encode(value))
    }

    /// A status with an empty body, or with the kit's JSON error body
    /// `{"error":{"code":…,"message":…}}` when `code` is given (which `NetworkError.serverCode`
    /// then reads).
    public static func status(_ status: Int, code: String? = nil, message: String = "") -> StubResponse {
        struct Envelope: Encodable { var error: ServerError }
        guard let code, let body = try? JSONEncoder().encode(Envelope(error: ServerError(code: code, message: message)))
        else {
            return .response(status: status, headerFields: [:], body: Data())
        }
        return .response(status: status, headerFields: ["Content-Type": "application/json"], body: body)
    }

    /// An encoder writing ISO 8601 dates.
    public static var isoEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The response as the transport returns it, or nil for a header name HTTP does not allow.
    func transportResponse() -> TransportResponse? {
        guard case .response(let code, let headerFields, let body) = self else { return nil }
        var fields = HTTPFields()
        for (name, value) in headerFields {
            guard let name = HTTPField.Name(name) else { return nil }
            fields[name] = value
        }
        return TransportResponse(head: HTTPResponse(status: .init(code: code), headerFields: fields), body: body)
    }
}

/// One request a ``StubTransport`` was sent, and what it answered.
public struct RecordedExchange: Sendable {
    /// The request as the performer handed it to the transport (authorization and interceptors'
    /// header fields included).
    public var request: TransportRequest
    /// The request's body bytes, read once when it arrived (empty without a body).
    public var body: Data
    /// The status code answered, or the failure thrown.
    public var outcome: Result<Int, NetworkError>

    /// The method's name (`GET`, `POST`, …).
    public var method: String { request.head.method.rawValue }
    /// The path without its query.
    public var path: String { StubTransport.pathWithoutQuery(request.head.path) }
    /// The path with its query, as sent.
    public var target: String { request.head.path ?? "" }
    /// The value of header field `name` (any case), if sent.
    public func headerField(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { request.head.headerFields[$0] }
    }
    /// The status code answered, or nil when the stub failed the request.
    public var status: Int? { try? outcome.get() }
}
