import BazaarAPI
import Foundation

extension MalformedCase {
    /// Requests that break HTTP/1.1 itself or its limits: header sizes and counts, request lines,
    /// message framing, and garbage pipelined after a valid request.
    static let requestCases: [MalformedCase] = [
        header(
            "a header value of 8 KiB", .status([200]), extra: "X-Big: \(String(repeating: "a", count: 8 << 10))\r\n"),
        header(
            "an 8 KiB header on an authenticated route", .status([200]), path: APIRoutes.me.template,
            extra: "X-Big: \(String(repeating: "a", count: 8 << 10))\r\n"),
        header("a header value of 100 KiB", .rejected, extra: "X-Big: \(String(repeating: "a", count: 100 << 10))\r\n"),
        header(
            "an Authorization header of 100 KiB", .rejected, path: APIRoutes.me.template, authorized: false,
            extra: "Authorization: Bearer \(String(repeating: "a", count: 100 << 10))\r\n"),
        header("500 header fields", .answeredOrClosed, extra: (0..<500).map { "X-Field-\($0): value\r\n" }.joined()),
        header("5 000 header fields", .rejected, extra: (0..<5_000).map { "X-Field-\($0): value-\($0)\r\n" }.joined()),
        raw(
            "a URL of 8 KiB", .answeredOrClosed,
            "GET /health?x=\(String(repeating: "a", count: 8 << 10)) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        raw(
            "a URL of 100 KiB", .rejected,
            "GET /health?x=\(String(repeating: "a", count: 100 << 10)) HTTP/1.1\r\nHost: x\r\n\r\n"),
        raw("a garbage request line", .rejected, "\u{1}\u{2}\u{7f} this is not HTTP \u{3}\r\n\r\n"),
        raw("an unknown method", .rejected, "BREW /health HTTP/1.1\r\nHost: x\r\n\r\n"),
        raw("a request line without a version", .rejected, "GET /health\r\n\r\n"),
        raw("an HTTP/2 preface on the HTTP/1.1 port", .rejected, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
        MalformedCase(name: "a TLS ClientHello on the plain port", expectation: .rejected) { context in
            var hello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x2F, 0x01, 0x00, 0x00, 0x2B, 0x03, 0x03]
            hello += [UInt8](repeating: 0x42, count: 32) + [0x00, 0x00, 0x02, 0x13, 0x01, 0x01, 0x00]
            return try await RawProbe.send(Data(hello), port: context.port)
        },
        raw(
            "Content-Length and Transfer-Encoding together", .rejected,
            "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        ),
        raw(
            "two different Content-Lengths", .rejected,
            "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"
        ),
        raw(
            "a chunk size that is not hex", .rejected,
            "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
        ),
        raw(
            "Content-Length 99999999999999999999", .rejected,
            "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999999999999999\r\n\r\n{}"
        ),
        pipelined(
            "garbage pipelined after a valid GET", valid: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", count: 1,
            expected: 200),
        pipelined("garbage pipelined after a valid POST", valid: loginRequest, count: 1, expected: 401),
        pipelined(
            "garbage pipelined after 100 valid GETs", valid: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", count: 100,
            expected: 200),
    ]

    /// A well-formed login of an unknown user (answered 401), kept open for more requests.
    static var loginRequest: String {
        let body = #"{"username":"nobody","password":"password1"}"#
        return "POST \(APIRoutes.login.template) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    /// A GET of `path` (`/health` by default) with `extra` header lines, authenticated unless `authorized` is false.
    static func header(
        _ name: String, _ expectation: Expectation, path: String = APIRoutes.health.template, authorized: Bool = true,
        extra: String
    ) -> MalformedCase {
        MalformedCase(name: name, expectation: expectation) { context in
            var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            if authorized { request += "Authorization: Bearer \(context.token)\r\n" }
            return try await RawProbe.send(Data((request + extra + "\r\n").utf8), port: context.port, awaitClose: true)
        }
    }

    /// Sends `text` as it is.
    static func raw(_ name: String, _ expectation: Expectation, _ text: String) -> MalformedCase {
        MalformedCase(name: name, expectation: expectation) { context in
            try await RawProbe.send(Data(text.utf8), port: context.port, awaitClose: text.contains("Connection: close"))
        }
    }

    /// `count` copies of a valid request and garbage after them, in one write: each valid request
    /// must be answered `expected`, then the garbage refused (a 4xx or a close), never a 5xx.
    static func pipelined(_ name: String, valid: String, count: Int, expected: Int) -> MalformedCase {
        MalformedCase(name: name, expectation: .judgedByCase) { context in
            let bytes =
                Data(String(repeating: valid, count: count).utf8) + Data("\u{0}\u{1}GARBAGE \u{7f}\r\n\r\n".utf8)
            var outcome = try await RawProbe.send(bytes, port: context.port, responses: count + 1)
            let answered = outcome.statuses.prefix(count)
            if answered.count < count || answered.contains(where: { $0 != expected }) {
                outcome.failure = "expected \(count) × \(expected) first"
            } else if outcome.statuses.count == count, !outcome.closed {
                outcome.failure = "the garbage got no answer and the connection stayed open"
            } else if outcome.statuses.count > count, !(400..<500).contains(outcome.statuses[count]) {
                outcome.failure = "the garbage was answered \(outcome.statuses[count])"
            }
            if count > 1 {
                outcome.note = "\(answered.filter { $0 == expected }.count) of \(count) answered \(expected) first"
            }
            return outcome
        }
    }
}
