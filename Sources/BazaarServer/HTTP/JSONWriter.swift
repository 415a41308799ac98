import BazaarAPI
import Foundation
import NIOCore

/// Writes JSON straight into a `ByteBuffer`, for the answers the server sends most and cannot
/// keep encoded: message history pages and sent messages.
///
/// `JSONEncoder` on Linux took about 165 µs for a page of fifty messages, a fifth of the whole
/// request; this writes the same bytes in a tenth of that. "The same bytes" is the contract:
/// sorted keys, slashes unescaped, dates as ``BazaarJSON/formatDate(_:)`` writes them, and
/// strings escaped as `JSONEncoder` escapes them (`JSONWriterTests` compares the two on random
/// text, every control character included).
struct JSONWriter {
    /// The JSON written so far.
    private(set) var buffer: ByteBuffer

    /// Starts an empty document with room for `capacity` bytes.
    init(capacity: Int) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    /// Writes punctuation or a key exactly as given (the caller's text is already JSON).
    mutating func raw(_ text: StaticString) {
        buffer.writeStaticString(text)
    }

    /// Writes `value` as a JSON string: quoted, with `"`, `\` and control characters escaped.
    mutating func string(_ value: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices where Self.needsEscape(bytes[index]) {
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                writeEscaped(bytes[index])
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...])))
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    /// Writes `value` as a string, or `null`.
    mutating func string(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    /// Writes a date as the contract does (a quoted ``BazaarJSON/formatDate(_:)``).
    mutating func date(_ value: Date) {
        buffer.writeInteger(UInt8(ascii: "\""))
        buffer.writeString(BazaarJSON.formatDate(value))
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    private mutating func writeEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case UInt8(ascii: "\n"): raw("\\n")
        case UInt8(ascii: "\r"): raw("\\r")
        case UInt8(ascii: "\t"): raw("\\t")
        default:
            raw("\\u00")
            Self.hexDigits.withUTF8Buffer { digits in
                buffer.writeInteger(digits[Int(byte >> 4)])
                buffer.writeInteger(digits[Int(byte & 0x0F)])
            }
        }
    }
}

/// A value the server writes with ``JSONWriter`` rather than `JSONEncoder`, to the same bytes
/// `BazaarJSON.makeEncoder()` would give.
protocol JSONWritable: Encodable {
    /// About how many bytes the value takes, so the buffer is allocated once.
    var estimatedJSONSize: Int { get }
    /// Writes the value, keys sorted as `JSONEncoder`'s `.sortedKeys` sorts them.
    func write(to writer: inout JSONWriter)
}

extension Message: JSONWritable {
    var estimatedJSONSize: Int { 200 + body.utf8.count }

    func write(to writer: inout JSONWriter) {
        writer.raw("{\"body\":")
        writer.string(body)
        writer.raw(",\"conversationId\":")
        writer.string(conversationId)
        writer.raw(",\"createdAt\":")
        writer.date(createdAt)
        writer.raw(",\"id\":")
        writer.string(id)
        writer.raw(",\"senderId\":")
        writer.string(senderId)
        writer.raw("}")
    }
}

extension Page: JSONWritable where Item: JSONWritable {
    var estimatedJSONSize: Int { items.reduce(64) { $0 + $1.estimatedJSONSize } }

    func write(to writer: inout JSONWriter) {
        writer.raw("{\"items\":[")
        for (index, item) in items.enumerated() {
            if index > 0 { writer.raw(",") }
            item.write(to: &writer)
        }
        writer.raw("],\"nextCursor\":")
        writer.string(nextCursor)
        writer.raw("}")
    }
}
