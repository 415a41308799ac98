import BazaarAPI
import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import BazaarServer

/// Every request has an id (the caller's `X-Request-ID` when it is a sane one), returned in the
/// response and written in the request's log line; `--log-format json` writes one JSON object
/// per line that a collector can parse.
@Suite("Request ids and JSON log lines", .timeLimit(.minutes(2)))
struct RequestLogTests {
    /// The JSON objects in `text`, one per line; a line that is not one fails the test.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not an object: \(line)")
        }
    }

    @Test(
        "bazaar-server --log-format json: a request's line has its id (given or made), route, status, duration and replica, and the response carries the id"
    )
    func jsonLinesCarryTheRequestID() async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let logs = folder.appendingPathComponent("server.log").path
        let server = try await offPool {
            try BazaarProcess(
                sqlitePath: folder.appendingPathComponent("bazaar.sqlite").path, standardErrorPath: logs,
                extraArguments: ["--log-format", "json", "--log-level", "info", "--replica-name", "replica-a"])
        }
        defer { _ = server.terminate() }
        let client = BazaarTestClient(baseURL: server.baseURL)
        let given = try await client.get(
            "/v1/products/not-a-product", headers: [("X-Request-ID", "trace-from-proxy.42")])
        #expect(given.status == 404)
        #expect(given.header("X-Request-ID") == "trace-from-proxy.42")
        let made = try await client.get(APIRoutes.products.template)
        let madeID = try #require(made.header("X-Request-ID"))
        #expect(madeID.count == 32 && madeID.allSatisfy(\.isHexDigit))
        let long = String(repeating: "x", count: 129)
        let hostile = try await client.get(APIRoutes.healthLive.template, headers: [("X-Request-ID", "a{b}<c>")])
        #expect(hostile.header("X-Request-ID")?.count == 32, "an id that is not sane is replaced, not echoed")
        let tooLong = try await client.get(APIRoutes.healthLive.template, headers: [("X-Request-ID", long)])
        #expect(tooLong.header("X-Request-ID")?.count == 32)
        _ = server.terminate()

        let lines = try Self.objects(try String(contentsOfFile: logs, encoding: .utf8))
        let requests = lines.filter { $0["message"] as? String == "request" }
        let first = try #require(requests.first { $0["request_id"] as? String == "trace-from-proxy.42" })
        #expect(first["http.route"] as? String == "/v1/products/{id}", "the template, never the raw path")
        #expect(first["http.status"] as? String == "404")
        #expect(first["duration_ms"] != nil && first["level"] as? String == "info")
        #expect(first["replica"] as? String == "replica-a")
        #expect(first["hb.request.id"] == nil, "one request id per line: the one the caller knows")
        #expect((first["time"] as? String)?.hasSuffix("Z") == true)
        #expect(requests.contains { $0["request_id"] as? String == madeID && $0["http.status"] as? String == "200" })
    }

    @Test("a JSON line escapes quotes, newlines and control characters, and nests metadata")
    func jsonEscaping() throws {
        let written = Mutex<[String]>([])
        var handler = JSONLogHandler(label: "test") { line in written.withLock { $0.append(line) } }
        handler.logLevel = .debug
        handler[metadataKey: "replica"] = "r1"
        let logger = Logger(label: "test") { _ in handler }
        logger.info(
            "a \"quoted\"\nline\u{1B}[31m", metadata: ["list": ["x", "y"], "map": ["k": "v"], "replica": "override"])
        let line = try #require(written.withLock { $0.first })
        #expect(line.hasSuffix("}\n") && !line.dropLast().contains("\n"), "one line")
        let object = try #require(try Self.objects(line).first)
        #expect(object["message"] as? String == "a \"quoted\"\nline\u{1B}[31m")
        #expect(object["list"] as? [String] == ["x", "y"])
        #expect(object["map"] as? [String: String] == ["k": "v"])
        #expect(object["replica"] as? String == "override", "a line's own metadata wins")
        #expect(object["label"] as? String == "test")
    }
}
