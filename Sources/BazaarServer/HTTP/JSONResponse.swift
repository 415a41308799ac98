import BazaarAPI
import BazaarStorage
import Crypto
import Foundation
import Hummingbird

/// Builds JSON responses, with optional validators for cacheable public reads.
enum JSONResponse {
    /// A JSON response with the contract's encoder.
    static func make<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws
        -> Response
    {
        let data = try BazaarJSON.makeEncoder().encode(value)
        return Response(status: status, headers: json(headers), body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A JSON response written by ``JSONWriter``: the same bytes as the encoder, for the hot answers.
    static func make(_ value: some JSONWritable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:])
        -> Response
    {
        var writer = JSONWriter(capacity: value.estimatedJSONSize)
        value.write(to: &writer)
        return Response(status: status, headers: json(headers), body: .init(byteBuffer: writer.buffer))
    }

    /// A 200 answer whose JSON body is already encoded.
    static func make(encoded body: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: contentType], body: .init(byteBuffer: body))
    }

    /// The `Content-Type` of every JSON answer.
    static let contentType = "application/json; charset=utf-8"

    /// `headers` with the JSON content type set.
    private static func json(_ headers: HTTPFields) -> HTTPFields {
        var headers = headers
        headers[.contentType] = contentType
        return headers
    }

    /// A cacheable JSON response: `ETag` from the body, the given `Cache-Control`, and 304 when
    /// the request's `If-None-Match` already names this representation.
    static func cacheable<T: Encodable>(_ value: T, request: Request, cacheControl: String) throws -> Response {
        let data = try BazaarJSON.makeEncoder().encode(value)
        return cacheable(
            EncodedResponseCache.Entry(
                body: ByteBuffer(bytes: data), etag: HTTPCaching.etag(for: data), cacheControl: cacheControl),
            request: request)
    }

    /// A cacheable JSON response whose encoded body is kept in `cache` under `key`: `fetch` runs
    /// (and the value is encoded and hashed) only when the cache does not hold it. A key names one
    /// route's read, so a kept entry's `Cache-Control` is the one its route passes.
    static func cacheable<T: Encodable>(
        key: String, in cache: EncodedResponseCache, request: Request, cacheControl: String,
        fetch: () async throws -> T
    ) async throws -> Response {
        if let entry = cache.entry(for: key) {
            return cacheable(entry, request: request)
        }
        let generation = cache.generation
        let data = try BazaarJSON.makeEncoder().encode(try await fetch())
        let entry = EncodedResponseCache.Entry(
            body: ByteBuffer(bytes: data), etag: HTTPCaching.etag(for: data), cacheControl: cacheControl)
        cache.store(entry, for: key, generation: generation)
        return cacheable(entry, request: request)
    }

    /// The response for an encoded body: 304 when `If-None-Match` names its ETag, else 200.
    private static func cacheable(_ entry: EncodedResponseCache.Entry, request: Request) -> Response {
        if HTTPCaching.matches(request, etag: entry.etag) {
            var headers = entry.fields
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: entry.fields, body: .init(byteBuffer: entry.body))
    }
}

/// ETag helpers.
enum HTTPCaching {
    /// A strong ETag: the quoted start of the body's SHA-256.
    static func etag(for data: Data) -> String {
        "\"" + Hex.sha256(data).prefix(32) + "\""
    }

    /// Whether `If-None-Match` names the ETag (weak comparison, lists and `*` understood).
    static func matches(_ request: Request, etag: String) -> Bool {
        guard let header = request.headers[.ifNoneMatch] else { return false }
        return matches(ifNoneMatch: header, etag: etag)
    }

    /// Whether an `If-None-Match` value names `etag`: `*`, or any listed tag whose opaque part is
    /// `etag`'s, weak (`W/`) or strong alike (RFC 9110 §13.1.2's weak comparison).
    static func matches(ifNoneMatch header: String, etag: String) -> Bool {
        let bare = opaque(etag[...])
        for candidate in header.split(separator: ",") {
            var value = candidate.trimmingHTTPWhitespace
            if value == "*" { return true }
            if value.hasPrefix("W/") { value = value.dropFirst(2) }
            if opaque(value) == bare { return true }
        }
        return false
    }

    /// An entity tag without the double quotes around its opaque part.
    private static func opaque(_ tag: Substring) -> Substring {
        var tag = tag
        while tag.first == "\"" { tag.removeFirst() }
        while tag.last == "\"" { tag.removeLast() }
        return tag
    }
}
