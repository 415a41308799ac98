import Crypto
import Foundation

/// Lower-case hexadecimal text of bytes (digests for ETags and stored token hashes).
///
/// `String(format: "%02x")` per byte went through Foundation's formatter and was 7% of a product
/// page request in the load run; this writes the digits directly.
package enum Hex {
    /// The lower-case hex digit for the low four bits of `value`; the one digit table that
    /// ``RandomID`` and ``JSONWriter`` write from too.
    @inline(__always)
    package static func digit(_ value: some BinaryInteger) -> UInt8 {
        digits.withUTF8Buffer { $0[Int(value & 0xF)] }
    }

    private static let digits: StaticString = "0123456789abcdef"

    /// The bytes as lower-case hex, two digits each.
    package static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digit(byte >> 4))
            text.append(digit(byte))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SHA-256 of the data in lower-case hex: ETags, photo versions, stored token hashes.
    package static func sha256(_ data: Data) -> String {
        lowercase(SHA256.hash(data: data))
    }
}
