/// New opaque ids: random (version 4) UUIDs in lower-case text, as the contract shows them.
///
/// `UUID().uuidString.lowercased()` opened and read `/dev/urandom` for every id on Linux (two
/// opens per message send; 2 000 in three seconds of the load run's mix) and then lower-cased
/// the text through Unicode case mapping. This draws the 128 bits from the system generator
/// (`getrandom`, no file) and writes the hex digits directly.
package enum RandomID {
    /// A new id: 8-4-4-4-12 lower-case hex digits, version 4, RFC 4122 variant.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(high: generator.next(), low: generator.next())
    }

    /// The id for the 128 bits `high` and `low`, with the version and variant bits set.
    package static func make(high: UInt64, low: UInt64) -> String {
        let high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // variant 10
        return String(unsafeUninitializedCapacity: 36) { text in
            var offset = 0
            func put(_ word: UInt64, nibbles: Int) {
                for shift in stride(from: (nibbles - 1) * 4, through: 0, by: -4) {
                    text[offset] = Hex.digit(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
                    offset += 1
                }
            }
            func dash() {
                text[offset] = UInt8(ascii: "-")
                offset += 1
            }
            put(high >> 32, nibbles: 8)
            dash()
            put(high >> 16, nibbles: 4)
            dash()
            put(high, nibbles: 4)
            dash()
            put(low >> 48, nibbles: 4)
            dash()
            put(low, nibbles: 12)
            return 36
        }
    }

    /// Whether `text` has the shape of an id this server makes: 8-4-4-4-12 lower-case hex digits.
    /// Any version is taken (ids stored before `make` existed were Foundation's), as
    /// `UUID(uuidString:)` with a lower-case check took them; a byte check, because that parse
    /// goes through `sscanf` on Linux, a microsecond and more on every id a request names.
    package static func isWellFormed(_ text: some StringProtocol) -> Bool {
        var count = 0
        for byte in text.utf8 {
            let isDashPosition = count == 8 || count == 13 || count == 18 || count == 23
            let fits =
                isDashPosition
                ? byte == UInt8(ascii: "-")
                : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            guard fits, count < 36 else { return false }
            count += 1
        }
        return count == 36
    }
}
