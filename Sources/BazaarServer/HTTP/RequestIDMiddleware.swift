import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id that follows it: the caller's `X-Request-ID` when it is one (1 to 128
/// letters, digits, `-`, `_`, `.` or `:`; a proxy in front usually sets it), else a new random
/// one. It is in every log line of the request (`request_id`) and in the response's
/// `X-Request-ID`, so a client's report, the proxy's log and this server's lines can be matched.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The header, in requests and responses (a valid field name: never `nil`).
    let header = HTTPField.Name("X-Request-ID")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let header else { return try await next(request, context) }
        let id = request.headers[header].flatMap(Self.accepted) ?? Self.make()
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        // One id per request in the logs: this one, which the caller and the proxy know.
        context.logger[metadataKey: "hb.request.id"] = nil
        var response = try await next(request, context)
        response.headers[header] = id
        return response
    }

    /// `text` when it is an id this server passes on as it is.
    static func accepted(_ text: String) -> String? {
        guard (1...128).contains(text.utf8.count),
            text.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A
            })
        else { return nil }
        return text
    }

    /// 16 random bytes as hex.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
