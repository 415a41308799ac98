import BazaarAPI
import Foundation

/// Reads the HTTP/1.1 responses out of the raw bytes a server sent on one connection: their
/// statuses, headers and bodies, and where a `101 Switching Protocols` hands over to WebSocket frames.
struct HTTPResponseStream {
    /// One response.
    struct Response {
        /// The status code.
        var status: Int
        /// The header fields, names lower-cased.
        var headers: [String: String]
        /// The body.
        var body: [UInt8]

        /// The contract's error code, when the body is the JSON error shape.
        var errorCode: String? {
            (try? JSONDecoder().decode(ErrorBody.self, from: Data(body)))?.error.code
        }

        /// Whether the server said it closes the connection after this response.
        var closesConnection: Bool { headers["connection"]?.lowercased().contains("close") == true }
    }

    /// The complete responses, in order.
    private(set) var responses: [Response] = []
    /// Whether bytes after the last complete response are the start of another (or junk).
    private(set) var hasIncompleteTail = false
    /// The bytes after a `101` response: the first WebSocket frames.
    private(set) var upgradedRemainder: [UInt8]?

    /// Parses everything in `data`.
    init(_ data: Data) {
        let bytes = [UInt8](data)
        var index = 0
        while index < bytes.count {
            guard let headEnd = Self.find([13, 10, 13, 10], in: bytes, from: index) else {
                hasIncompleteTail = true
                return
            }
            let head = String(decoding: bytes[index..<headEnd], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
            guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/"), let status = Int(statusLine[1]) else {
                hasIncompleteTail = true
                return
            }
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            let bodyStart = headEnd + 4
            if status == 101 {
                responses.append(Response(status: status, headers: headers, body: []))
                upgradedRemainder = Array(bytes[bodyStart...])
                return
            }
            let length = headers["content-length"].flatMap(Int.init) ?? 0
            guard bytes.count - bodyStart >= length else {
                hasIncompleteTail = true
                return
            }
            responses.append(
                Response(status: status, headers: headers, body: Array(bytes[bodyStart..<bodyStart + length])))
            index = bodyStart + length
        }
    }

    /// Whether at least `count` complete responses (or a `101`) have arrived.
    func hasComplete(_ count: Int) -> Bool {
        responses.count >= count || upgradedRemainder != nil
    }

    /// The first index of `pattern` in `bytes` at or after `start`.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        for index in start...(bytes.count - pattern.count) where bytes[index] == pattern[0] {
            if Array(bytes[index..<index + pattern.count]) == pattern { return index }
        }
        return nil
    }
}
