import BazaarAPI
import Foundation
import NIOCore

/// A complete HTTP/1.1 JSON error response with `Connection: close`, as bytes, for handlers that
/// answer beneath the HTTP codec (before a request head was parsed, or instead of parsing one).
enum PlainErrorResponse {
    /// The response's bytes: status line, headers and the `{"error": {"code", "message"}}` body.
    static func bytes(
        status: Int, reason: String, code: String, message: String, extraHeaders: [(String, String)] = [],
        allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let body = (try? BazaarJSON.makeEncoder().encode(ErrorBody(code: code, message: message))) ?? Data()
        var head =
            "HTTP/1.1 \(status) \(reason)\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n"
        for (name, value) in extraHeaders { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        var buffer = allocator.buffer(capacity: head.utf8.count + body.count)
        buffer.writeString(head)
        buffer.writeBytes(body)
        return buffer
    }
}
