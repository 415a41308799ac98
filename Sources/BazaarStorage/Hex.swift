import Crypto
import Foundation

/// Lower-case hexadecimal text of bytes (digests for ETags and stored token hashes).
///
/// `String(format: "%02x")` per byte went through Foundation's formatter and was 7% of a product
/// page request in the load run; this writes the digits directly.
package enum Hex {
    /// The lower-case hex digit for the low four bits of `value`: the one place that
    /// ``RandomID``, the server's request ids and its JSON writer write digits from.
    ///
    /// Not generic, and inlinable: through a generic entry point, each digit of a request id asked
    /// the integer type for its bit width and signedness (2% of a product page's server CPU).
    /// Callers pass `UInt8(truncatingIfNeeded:)` of a wider word.
    @inlinable
    package static func digit(_ value: UInt8) -> UInt8 {
        let nibble = value & 0xF
        return nibble < 10 ? 0x30 + nibble : 0x57 + nibble
    }

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
