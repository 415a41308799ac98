import Hummingbird

/// A request's query parameters, parsed once, read by name: what Hummingbird's
/// `uri.queryParameters` gives, without its cost on every request.
///
/// Hummingbird's `FlatDictionary` is generic and not inlinable, so each parse and each lookup ran
/// through unspecialised code that asked the runtime for tuple metadata (seen in `perf` of product
/// reads; the gain in alternating rounds was within their noise). A route has a handful of
/// parameters, so a scan of an array is all a lookup needs. The reading is Hummingbird's, which a test checks name by name:
/// - pairs are split on `&` (a trailing one ends the query); a pair without `=` is a name with an
///   empty value;
/// - names are taken as sent; values are percent-decoded (`+` stays `+`; invalid UTF-8 becomes
///   U+FFFD), and a value whose escapes are malformed is kept as sent;
/// - when a name repeats, the first value counts.
struct ParsedQuery {
    private var pairs: [(name: Substring, value: Substring)] = []

    /// The parameters of `request`'s query; none without one.
    init(_ request: Request) {
        self.init(query: request.uri.query)
    }

    /// The parameters of `query` (the text after `?`, without it).
    init(query: String?) {
        guard let query, !query.isEmpty else { return }
        var sections = query.split(separator: "&", omittingEmptySubsequences: false)
        // A trailing `&` ends the query; it does not start an empty pair.
        if sections.last?.isEmpty == true { sections.removeLast() }
        for pair in sections {
            guard let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")) else {
                pairs.append((pair, ""))
                continue
            }
            let value = pair[pair.index(after: equals)...]
            pairs.append((pair[..<equals], Self.percentDecoded(value) ?? value))
        }
    }

    /// The first value under `name`; `nil` when the query has none.
    subscript(name: String) -> Substring? {
        pairs.first { $0.name == name }?.value
    }

    /// `text` with each `%XX` turned into its byte; `nil` when an escape is malformed.
    static func percentDecoded(_ text: Substring) -> Substring? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return Substring(String(decoding: bytes, as: UTF8.self))
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
