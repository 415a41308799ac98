import BazaarAPI
import Crypto
import Foundation
import Hummingbird

/// Builds JSON responses, with optional validators for cacheable public reads.
enum JSONResponse {
    /// A JSON response with the contract's encoder.
    static func make<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let data = try BazaarJSON.makeEncoder().encode(value)
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A cacheable JSON response: `ETag` from the body, the given `Cache-Control`, and 304 when
    /// the request's `If-None-Match` already names this representation.
    static func cacheable<T: Encodable>(_ value: T, request: Request, cacheControl: String) throws -> Response {
        let data = try BazaarJSON.makeEncoder().encode(value)
        let etag = HTTPCaching.etag(for: data)
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = cacheControl
        if HTTPCaching.matches(request, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// ETag helpers.
enum HTTPCaching {
    /// A strong ETag: the quoted start of the body's SHA-256.
    static func etag(for data: Data) -> String {
        "\"" + hexDigest(data).prefix(32) + "\""
    }

    /// The SHA-256 of the data in lower-case hex.
    static func hexDigest(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `If-None-Match` names the ETag (weak comparison, lists and `*` understood).
    static func matches(_ request: Request, etag: String) -> Bool {
        guard let header = request.headers[.ifNoneMatch] else { return false }
        let bare = etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        for candidate in header.split(separator: ",") {
            var value = candidate.trimmingCharacters(in: .whitespaces)
            if value == "*" { return true }
            if value.hasPrefix("W/") { value.removeFirst(2) }
            if value.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) == bare { return true }
        }
        return false
    }
}
