import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// Counts hits per name, shared between the test routes and the test that reads them.
final class HitCounter: Sendable {
    private let counts = Mutex([String: Int]())

    /// Adds one hit to `name` and returns the new count.
    @discardableResult
    func hit(_ name: String) -> Int {
        counts.withLock { counts in
            counts[name, default: 0] += 1
            return counts[name, default: 0]
        }
    }

    /// The hits so far for `name`.
    func count(_ name: String) -> Int {
        counts.withLock { $0[name, default: 0] }
    }
}

/// What `/echo` answers: the request as the server saw it.
struct Echo: Codable, Sendable {
    var method: String
    var path: String
    var rawQuery: String?
    var query: [[String]]
    var headers: [String: String]
    var body: String
    var bodyLength: Int
    /// The `Host` the request named (HTTP/1.1's header, which Hummingbird keeps as the authority).
    var authority: String?
}

/// The fields `/form` decodes with Hummingbird's own form decoder.
struct FormFields: Codable, Sendable, Equatable {
    var text: String
    var tags: [String]
}

/// A product, as the README example's server returns one.
struct ExampleProduct: Codable, Sendable, Equatable {
    var id: String
    var title: String
    var priceCents: Int
}

/// A small HTTP bin for the kit's tests: echo, statuses, slow and flaky routes, and cacheable ones.
enum KitTestRoutes {
    /// 16 MiB of zeros, gzipped: compressed once for every test that asks, so no handler spends
    /// seconds of CPU on it while other tests wait.
    static let bomb: ByteBuffer = {
        var zeros = ByteBuffer(repeating: 0, count: 16 << 20)
        return try! zeros.compress(with: .gzip())
    }()

    static func router(hits: HitCounter) -> Router<BasicRequestContext> {
        let router = Router()

        @Sendable func echo(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
            hits.hit("echo")
            let body = try await request.body.collect(upTo: 50 << 20)
            var headers: [String: String] = [:]
            // A repeated field reads as HTTP joins it, `first, second`, so a test sees it twice.
            for field in request.headers {
                let name = field.name.canonicalName
                headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
            }
            let query = request.uri.queryParameters.map { [String($0.key), String($0.value)] }
            return try KitTestRoutes.json(
                Echo(
                    method: request.method.rawValue, path: request.uri.path, rawQuery: request.uri.query,
                    query: query, headers: headers, body: String(buffer: body), bodyLength: body.readableBytes,
                    authority: request.head.authority))
        }
        router.get("/echo", use: echo)
        router.post("/echo", use: echo)
        router.put("/echo", use: echo)
        router.patch("/echo", use: echo)
        router.delete("/echo", use: echo)
        router.get("/echo/{rest}", use: echo)

        router.post("/form") { request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let fields = try URLEncodedFormDecoder().decode(FormFields.self, from: String(buffer: body))
            return try KitTestRoutes.json(fields)
        }

        router.get("/products/{id}") { request, context -> Response in
            let id = try context.parameters.require("id")
            guard id != "missing" else {
                return try KitTestRoutes.json(
                    ["error": ["code": "not_found", "message": "No product has that id."]], status: .notFound)
            }
            return try KitTestRoutes.json(ExampleProduct(id: id, title: "Lamp", priceCents: 1500))
        }

        router.get("/status/{code}") { request, context -> Response in
            let code = try context.parameters.require("code", as: Int.self)
            return try KitTestRoutes.json(
                ["error": ["code": "status_\(code)", "message": "You asked for \(code)."]],
                status: .init(code: code))
        }

        router.get("/text") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "plain"))
            )
        }

        // Compressed whether asked or not, as some servers do: /compressed/gzip, /compressed/deflate.
        router.get("/compressed/{encoding}") { _, context -> Response in
            let encoding = try context.parameters.require("encoding")
            let product = ExampleProduct(
                id: "p-1", title: String(repeating: "Road bike ", count: 200), priceCents: 25_000)
            var plain = ByteBuffer(bytes: try JSONEncoder().encode(product))
            let algorithm: CompressionAlgorithm = encoding == "gzip" ? .gzip() : .zlib()
            let body = try plain.compress(with: algorithm)
            return Response(
                status: .ok, headers: [.contentType: "application/json", .contentEncoding: encoding],
                body: .init(byteBuffer: body))
        }
        // A small gzip body (about 16 KiB) that inflates to 16 MiB of zeros, made once.
        router.get("/bomb") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/octet-stream", .contentEncoding: "gzip"],
                body: .init(byteBuffer: KitTestRoutes.bomb))
        }

        router.get("/bad-product") { _, _ -> Response in
            try KitTestRoutes.json(["items": [["id": "a", "title": "ok", "priceCents": "12"]]])
        }

        router.post("/tokens") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 1 << 20)
            return try KitTestRoutes.json(
                [
                    "user": ["name": "ada"],
                    "tokens": ["accessToken": "at-resp-secret", "refreshToken": "rt-resp-secret"],
                ])
        }

        router.get("/no-content") { _, _ in Response(status: .noContent) }

        router.get("/big") { request, _ -> Response in
            let size = request.uri.queryParameters.get("bytes", as: Int.self) ?? 1 << 20
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: 0x61, count: size)))
        }

        // A file of `size` bytes (FilePattern, `version`) with an ETag, answering one `Range`
        // (`bytes=N-`) when `If-Range` is absent or current; `cutAfter` closes the connection after
        // that many body bytes, as a network cut does.
        router.get("/file/{name}") { request, context -> Response in
            let name = try context.parameters.require("name")
            hits.hit("file-\(name)")
            let size = request.uri.queryParameters.get("size", as: Int.self) ?? 1 << 20
            let version = request.uri.queryParameters.get("version", as: Int.self) ?? 1
            let cutAfter = request.uri.queryParameters.get("cutAfter", as: Int.self)
            let etag = "\"v\(version)-\(size)\""
            var headers: HTTPFields = [.eTag: etag, .acceptRanges: "bytes", .contentType: "application/octet-stream"]
            var start = 0
            var status = HTTPResponse.Status.ok
            if let range = request.headers[.range], (request.headers[.ifRange] ?? etag) == etag,
                range.hasPrefix("bytes="), range.hasSuffix("-"), let first = Int(range.dropFirst(6).dropLast())
            {
                guard first < size else {
                    return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"])
                }
                start = first
                status = .partialContent
                headers[.contentRange] = "bytes \(start)-\(size - 1)/\(size)"
            }
            headers[.contentLength] = "\(size - start)"
            let block = ByteBuffer(bytes: FilePattern.block(version: version))
            let first = start
            return Response(
                status: status, headers: headers,
                body: ResponseBody { writer in
                    let stop = cutAfter.map { min(size, first + $0) } ?? size
                    var position = first
                    while position < stop {
                        let offset = position % FilePattern.blockSize
                        let count = min(stop - position, FilePattern.blockSize - offset)
                        try await writer.write(block.getSlice(at: offset, length: count) ?? ByteBuffer())
                        position += count
                    }
                    if stop < size { throw CancellationError() }
                    try await writer.finish(nil)
                })
        }

        // Sends the head at once, then one small chunk every 100 ms for `ms` milliseconds.
        router.get("/slow") { request, _ -> Response in
            hits.hit("slow")
            let total = request.uri.queryParameters.get("ms", as: Int.self) ?? 5_000
            return Response(
                status: .ok,
                body: ResponseBody { writer in
                    var elapsed = 0
                    while elapsed < total {
                        try await writer.write(ByteBuffer(string: "."))
                        try await Task.sleep(for: .milliseconds(100))
                        elapsed += 100
                    }
                    try await writer.finish(nil)
                })
        }

        // Waits before sending anything at all.
        router.get("/stall") { request, _ -> Response in
            hits.hit("stall")
            let total = request.uri.queryParameters.get("ms", as: Int.self) ?? 5_000
            try await Task.sleep(for: .milliseconds(total))
            return Response(status: .ok)
        }

        // Fails with `status` for the first `failures` hits under `name`, then succeeds.
        @Sendable func flaky(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
            let name = try context.parameters.require("name")
            let failures = request.uri.queryParameters.get("failures", as: Int.self) ?? 2
            let status = request.uri.queryParameters.get("status", as: Int.self) ?? 503
            let retryAfter = request.uri.queryParameters.get("retryAfter")
            let count = hits.hit("flaky-\(name)")
            _ = try await request.body.collect(upTo: 1 << 20)
            if count <= failures {
                var headers: HTTPFields = [:]
                if let retryAfter { headers[.retryAfter] = String(retryAfter) }
                return try KitTestRoutes.json(
                    ["error": ["code": "unavailable", "message": "Try again."]], status: .init(code: status),
                    headers: headers)
            }
            // `maxAge` makes the success cacheable.
            let cacheControl = request.uri.queryParameters.get("maxAge").map { "max-age=\($0)" }
            return try KitTestRoutes.json(["attempt": count], headers: cacheControl.map { [.cacheControl: $0] } ?? [:])
        }
        router.get("/flaky/{name}", use: flaky)
        router.post("/flaky/{name}", use: flaky)

        router.post("/upload") { request, _ -> Response in
            var total = 0
            for try await chunk in request.body { total += chunk.readableBytes }
            return try KitTestRoutes.json(["bytes": total])
        }

        // MARK: Cacheable routes; each counts full answers (`200`) and revalidations (`304`).

        router.get("/cache/max-age/{name}") { request, context -> Response in
            let name = try context.parameters.require("name")
            let count = hits.hit("max-age-\(name)")
            return try KitTestRoutes.json(["version": count], headers: [.cacheControl: "max-age=60"])
        }

        router.get("/cache/etag/{name}") { request, context -> Response in
            let name = try context.parameters.require("name")
            let maxAge = request.uri.queryParameters.get("maxAge") ?? "0"
            if request.headers[.ifNoneMatch] == "\"v1\"" {
                hits.hit("etag-304-\(name)")
                let renewed = request.uri.queryParameters.get("renewedMaxAge") ?? maxAge
                return Response(status: .notModified, headers: [.eTag: "\"v1\"", .cacheControl: "max-age=\(renewed)"])
            }
            hits.hit("etag-200-\(name)")
            return try KitTestRoutes.json(
                ["version": 1], headers: [.eTag: "\"v1\"", .cacheControl: "max-age=\(maxAge)"])
        }

        router.get("/cache/last-modified/{name}") { request, context -> Response in
            let name = try context.parameters.require("name")
            let stamp = "Tue, 15 Nov 1994 08:12:31 GMT"
            if request.headers[.ifModifiedSince] == stamp {
                hits.hit("lm-304-\(name)")
                return Response(status: .notModified, headers: [.lastModified: stamp, .cacheControl: "no-cache"])
            }
            hits.hit("lm-200-\(name)")
            return try KitTestRoutes.json(["version": 1], headers: [.lastModified: stamp, .cacheControl: "no-cache"])
        }

        router.get("/cache/must-revalidate/{name}") { request, context -> Response in
            let name = try context.parameters.require("name")
            let count = hits.hit("must-revalidate-\(name)")
            return try KitTestRoutes.json(["version": count], headers: [.cacheControl: "max-age=60, must-revalidate"])
        }

        router.get("/cache/no-store/{name}") { request, context -> Response in
            let name = try context.parameters.require("name")
            let count = hits.hit("no-store-\(name)")
            return try KitTestRoutes.json(["version": count], headers: [.cacheControl: "no-store", .eTag: "\"x\""])
        }

        router.get("/cache/private/{name}") { request, context -> Response in
            let name = try context.parameters.require("name")
            let count = hits.hit("private-\(name)")
            return try KitTestRoutes.json(["version": count], headers: [.cacheControl: "private, max-age=60"])
        }

        router.get("/cache/vary/{name}") { request, context -> Response in
            let name = try context.parameters.require("name")
            let language = request.headers[.acceptLanguage] ?? "none"
            hits.hit("vary-\(name)-\(language)")
            return try KitTestRoutes.json(
                ["language": language], headers: [.cacheControl: "max-age=60", .vary: "Accept-Language"])
        }

        router.get("/cache/sized/{name}") { request, context -> Response in
            let name = try context.parameters.require("name")
            let size = request.uri.queryParameters.get("bytes", as: Int.self) ?? 1000
            hits.hit("sized-\(name)")
            return Response(
                status: .ok, headers: [.cacheControl: "max-age=60"],
                body: .init(byteBuffer: ByteBuffer(repeating: 0x62, count: size)))
        }

        router.get("/cache/user") { request, context -> Response in
            let user = request.headers[.authorization] ?? "nobody"
            hits.hit("user-\(user)")
            return try KitTestRoutes.json(["user": user], headers: [.cacheControl: "private, max-age=60"])
        }
        return router
    }

    /// A JSON response with the given status and extra headers.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:])
        throws -> Response
    {
        var fields: HTTPFields = [.contentType: "application/json"]
        fields.append(contentsOf: headers)
        let data = try JSONEncoder().encode(value)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
