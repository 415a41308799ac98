/// Byte-level helpers for the ASCII text of HTTP header names and directives, which never need
/// Unicode-aware (and allocating) string operations.
enum ASCII {
    /// Whether two strings are equal when ASCII letters are compared without case.
    static func equalIgnoringCase(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { lowercased($0) == lowercased($1) }
    }

    /// The byte with `A`-`Z` mapped to `a`-`z`.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// Whether the byte is a space or a horizontal tab.
    static func isSpaceOrTab(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}
