import BazaarAPI
import BazaarStorage
import Foundation
import NIOCore

/// Writes JSON as bytes, for the answers the server sends most and cannot keep encoded: message
/// history pages and sent messages.
///
/// `JSONEncoder` on Linux took about 165 µs for a page of fifty messages, a fifth of the whole
/// request; this writes the same bytes in a tenth of that. "The same bytes" is the contract:
/// sorted keys, slashes unescaped, dates as ``BazaarJSON/formatDate(_:)`` writes them, and
/// strings escaped as `JSONEncoder` escapes them (`JSONWriterTests` compares the two on random
/// text, every control character included).
struct JSONWriter {
    /// The JSON written so far, as UTF-8. (Appending to an array is several times cheaper per
    /// call than appending to a `ByteBuffer`; the answer is copied into one buffer at the end.)
    private(set) var bytes: [UInt8] = []

    /// Starts an empty document with room for `capacity` bytes.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The document in a buffer for the response body.
    var buffer: ByteBuffer { ByteBuffer(bytes: bytes) }

    /// Writes punctuation or a key exactly as given (the caller's text is already JSON).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes `value` as a JSON string: quoted, with `"`, `\` and control characters escaped.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { text in
            var start = 0
            for index in text.indices where Self.needsEscape(text[index]) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
                writeEscaped(text[index])
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes `value` as a string, or `null`.
    mutating func string(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    /// Writes a date as the contract does (a quoted ``BazaarJSON/formatDate(_:)``).
    mutating func date(_ value: Date) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: BazaarJSON.formatDate(value).utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes an integer, or `null`.
    mutating func integer(_ value: Int?) {
        guard let value else {
            raw("null")
            return
        }
        bytes.append(contentsOf: String(value).utf8)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

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
            bytes.append(Hex.digit(byte >> 4))
            bytes.append(Hex.digit(byte))
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
    var estimatedJSONSize: Int { 200 + body.utf8.count + attachments.count * 400 }

    func write(to writer: inout JSONWriter) {
        writer.raw("{")
        if !attachments.isEmpty {
            writer.raw("\"attachments\":[")
            for (index, photo) in attachments.enumerated() {
                if index > 0 { writer.raw(",") }
                photo.write(to: &writer)
            }
            writer.raw("],")
        }
        writer.raw("\"body\":")
        writer.string(body)
        writer.raw(",\"conversationId\":")
        writer.string(conversationId)
        writer.raw(",\"createdAt\":")
        writer.date(createdAt)
        writer.raw(",\"id\":")
        writer.string(id)
        writer.raw(",\"kind\":")
        writer.string(kind.rawValue)
        if let offerId {
            writer.raw(",\"offerId\":")
            writer.string(offerId)
        }
        if removed { writer.raw(",\"removed\":true") }
        writer.raw(",\"senderId\":")
        writer.string(senderId)
        writer.raw("}")
    }
}

extension Photo: JSONWritable {
    var estimatedJSONSize: Int { 400 }

    func write(to writer: inout JSONWriter) {
        writer.raw("{\"fullURL\":")
        writer.string(fullURL)
        writer.raw(",\"height\":")
        writer.integer(height)
        writer.raw(",\"id\":")
        writer.string(id)
        writer.raw(",\"mediumURL\":")
        writer.string(mediumURL)
        writer.raw(",\"thumbURL\":")
        writer.string(thumbURL)
        writer.raw(",\"width\":")
        writer.integer(width)
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
