/// Lower-case hexadecimal text of bytes (digests for ETags and stored token hashes).
///
/// `String(format: "%02x")` per byte went through Foundation's formatter and was 7% of a product
/// page request in the load run; this writes the digits directly.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The bytes as lower-case hex, two digits each.
    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
