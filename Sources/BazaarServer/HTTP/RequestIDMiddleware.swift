import BazaarStorage
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// Gives every request an id that follows it: the caller's `X-Request-ID` when it is one (1 to 128
/// letters, digits, `-`, `_`, `.` or `:`; a proxy in front usually sets it), else a new one from
/// ``RequestIDSource``. It is in every log line of the request (`request_id`, through
/// ``RequestLogMetadata``) and in the response's `X-Request-ID`, so a client's report, the proxy's
/// log and this server's lines can be matched.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The header, in requests and responses (a valid field name: never `nil`).
    let header = HTTPField.Name("X-Request-ID")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let header else { return try await next(request, context) }
        let id = request.headers[header].flatMap(Self.accepted) ?? Self.make()
        var response = try await RequestLogMetadata.$requestID.withValue(id) { try await next(request, context) }
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

    /// A new id from the server's ``RequestIDSource``: 32 hex digits.
    static func make() -> String {
        RequestIDSource.shared.next()
    }
}

/// Makes request ids without a system call per request: 128 bits, 32 hex digits, that look random
/// and never repeat within the process.
///
/// Each id is a counter run through SplitMix64's finaliser under two seeds drawn once from the
/// system's generator. The finaliser is a bijection of `UInt64`, so the low half alone is
/// distinct for 2^64 ids; the seeds make two processes' sequences unrelated. Drawing 16 bytes from
/// `SystemRandomNumberGenerator` for each request was a `getrandom` system call, 2.5% of a
/// product page's server CPU. The ids correlate log lines; nothing relies on them being secret.
final class RequestIDSource: Sendable {
    /// The process's source.
    static let shared = RequestIDSource()

    private let counter = Atomic<UInt64>(0)
    private let high: UInt64
    private let low: UInt64

    init() {
        var generator = SystemRandomNumberGenerator()
        high = generator.next()
        low = generator.next()
    }

    /// The next id.
    func next() -> String {
        let n = counter.add(1, ordering: .relaxed).newValue
        return Self.hex(Self.mix(n &+ high), Self.mix(n ^ low))
    }

    /// SplitMix64's finaliser: a bijection that spreads each input bit over the whole output.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Two words as 32 lowercase hex digits (``Hex``'s), written straight into the string's storage
    /// rather than through an array as `Hex.lowercase` does: this runs once per request.
    static func hex(_ first: UInt64, _ second: UInt64) -> String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            func write(_ word: UInt64, at offset: Int) {
                for index in 0..<16 {
                    buffer[offset + index] = Hex.digit(UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * index)))
                }
            }
            write(first, at: 0)
            write(second, at: 16)
            return 32
        }
    }
}
