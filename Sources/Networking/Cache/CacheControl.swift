/// The directives of a `Cache-Control` header (RFC 9111 §5.2) that a private client cache obeys.
public struct CacheControl: Sendable, Hashable {
    /// `max-age`: seconds the response stays fresh.
    public var maxAge: Int?
    /// `no-store`: never keep it.
    public var noStore = false
    /// `no-cache`: keep it, but ask the server before every use.
    public var noCache = false
    /// `private`: for one user only (a client cache may keep it).
    public var isPrivate = false
    /// `must-revalidate`: never use it stale.
    public var mustRevalidate = false

    /// Parses a header value; unknown directives are ignored, repeated headers can be joined with commas.
    ///
    /// It runs on every cache lookup, so it reads the bytes in place: no split arrays, no lowercased
    /// copies (directive names compare without case).
    public init(_ header: String?) {
        guard let header else { return }
        let bytes = header.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.endIndex
            apply(directive: bytes[start..<end])
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
    }

    /// Notes one `name` or `name=argument` directive.
    private mutating func apply(directive: Substring.UTF8View) {
        let equals = directive.firstIndex(of: UInt8(ascii: "="))
        let name = Self.trimmed(directive[..<(equals ?? directive.endIndex)])
        if ASCII.equalIgnoringCase(name, "max-age".utf8) {
            guard let equals,
                let seconds = Self.integer(Self.unquoted(Self.trimmed(directive[directive.index(after: equals)...])))
            else { return }
            maxAge = maxAge.map { min($0, seconds) } ?? seconds
        } else if ASCII.equalIgnoringCase(name, "no-store".utf8) {
            noStore = true
        } else if ASCII.equalIgnoringCase(name, "no-cache".utf8) {
            noCache = true
        } else if ASCII.equalIgnoringCase(name, "private".utf8) {
            isPrivate = true
        } else if ASCII.equalIgnoringCase(name, "must-revalidate".utf8) {
            mustRevalidate = true
        }
    }

    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        var slice = bytes
        while let first = slice.first, ASCII.isSpaceOrTab(first) { slice.removeFirst() }
        while let last = slice.last, ASCII.isSpaceOrTab(last) { slice.removeLast() }
        return slice
    }

    private static func unquoted(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else {
            return bytes
        }
        return bytes.dropFirst().dropLast()
    }

    /// A non-negative decimal number, or `nil` (as `Int(_:)` would give for anything else).
    private static func integer(_ bytes: Substring.UTF8View) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }
}
