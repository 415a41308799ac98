import Foundation

/// The fields of an `application/x-www-form-urlencoded` body (or a query string).
struct FormFields: Sendable {
    private var values: [String: String] = [:]

    /// Parses `encoded`; a name given twice keeps its first value.
    init(_ encoded: String) {
        for pair in encoded.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), !name.isEmpty, values[name] == nil else { continue }
            values[name] = parts.count > 1 ? Self.decode(parts[1]) ?? "" : ""
        }
    }

    /// The fields of `encoded` (a query string), then `more` (a multipart body's text fields);
    /// a name given twice keeps its first value.
    init(_ encoded: String, adding more: [(name: String, value: String)]) {
        self.init(encoded)
        for (name, value) in more where !name.isEmpty && values[name] == nil { values[name] = value }
    }

    /// The value of `name`, or `nil`.
    subscript(_ name: String) -> String? { values[name] }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
