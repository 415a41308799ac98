/// RFC 3986 percent-encoding and decoding over UTF-8, used by the query and form encoders.
///
/// Everything outside the unreserved set (`A-Z a-z 0-9 - . _ ~`) is encoded as `%XX` with upper-case
/// hex digits, so `+`, `&`, `=`, `#`, spaces and emoji survive any server's parser.
public enum PercentEncoding {
    /// How spaces are written: `%20` (RFC 3986, URL queries) or `+` (HTML form encoding).
    public enum SpaceStyle: Sendable {
        /// Spaces become `%20`.
        case percent
        /// Spaces become `+` (`application/x-www-form-urlencoded`).
        case plus
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Whether `byte` is in RFC 3986's unreserved set and so is written as itself.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Percent-encodes every byte of `string`'s UTF-8 form that is not unreserved.
    public static func encode(_ string: String, spaces: SpaceStyle = .percent) -> String {
        // The common case (names and values of plain characters) is returned as it is, not copied.
        if string.utf8.allSatisfy(isUnreserved) { return string }
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else if byte == UInt8(ascii: " "), spaces == .plus {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (and `+` as a space when `spaces` is `.plus`).
    ///
    /// Returns `nil` for a malformed escape or bytes that are not valid UTF-8.
    public static func decode(_ string: Substring, spaces: SpaceStyle = .percent) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        var iterator = string.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                output.append(high << 4 | low)
            case UInt8(ascii: "+") where spaces == .plus:
                output.append(UInt8(ascii: " "))
            default:
                output.append(byte)
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
