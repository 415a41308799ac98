/// An ordered list of name/value pairs for a URL query or a form body.
///
/// Order and repeated names are kept, so arrays survive: `["tag": ["a", "b"]]` encodes as
/// `tag=a&tag=b` (or `tag[]=a&tag[]=b` with ``ArrayStyle/brackets``).
public struct QueryParameters: Sendable, Hashable {
    /// One pair; a `nil` value is written as the bare name (`?flag`).
    public struct Item: Sendable, Hashable {
        /// The name, unencoded.
        public var name: String
        /// The value, unencoded; `nil` for a bare name.
        public var value: String?

        /// Makes a pair.
        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// How an array value is written.
    public enum ArrayStyle: Sendable, Hashable {
        /// The name is repeated: `tag=a&tag=b`.
        case repeatedName
        /// The name is repeated with `[]`: `tag[]=a&tag[]=b`.
        case brackets
    }

    /// The pairs, in order.
    public var items: [Item]

    /// Makes parameters from pairs in order.
    public init(_ items: [Item] = []) {
        self.items = items
    }

    /// Whether there are no pairs.
    public var isEmpty: Bool { items.isEmpty }

    /// Appends one pair per value of `value` under `name`.
    public mutating func append(_ name: String, _ value: some QueryValue, arrays: ArrayStyle = .repeatedName) {
        let values = value.queryValues
        let key = value.isArray && arrays == .brackets ? name + "[]" : name
        for single in values {
            items.append(Item(name: key, value: single))
        }
    }

    /// The first value under `name`, if any.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value ?? nil
    }

    /// Every value under `name`, in order.
    public func values(for name: String) -> [String] {
        items.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The percent-encoded form (`a=1&b=x%20y`), RFC 3986; spaces as `%20` or `+`.
    public func percentEncoded(spaces: PercentEncoding.SpaceStyle = .percent) -> String {
        var output = ""
        for (index, item) in items.enumerated() {
            if index > 0 { output.append("&") }
            output.append(PercentEncoding.encode(item.name, spaces: spaces))
            if let value = item.value {
                output.append("=")
                output.append(PercentEncoding.encode(value, spaces: spaces))
            }
        }
        return output
    }

    /// Parses an encoded query or form body; `+` is read as a space when `spaces` is `.plus`.
    ///
    /// Returns `nil` when an escape is malformed or a part is not UTF-8.
    public init?(percentEncoded string: String, spaces: PercentEncoding.SpaceStyle = .plus) {
        var items: [Item] = []
        for pair in string.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = pair.firstIndex(of: "=") {
                guard let name = PercentEncoding.decode(pair[..<equals], spaces: spaces),
                    let value = PercentEncoding.decode(pair[pair.index(after: equals)...], spaces: spaces)
                else { return nil }
                items.append(Item(name: name, value: value))
            } else {
                guard let name = PercentEncoding.decode(pair, spaces: spaces) else { return nil }
                items.append(Item(name: name, value: nil))
            }
        }
        self.items = items
    }
}

extension QueryParameters: ExpressibleByDictionaryLiteral {
    /// Makes parameters from a literal; keys keep their written order, arrays repeat the name.
    public init(dictionaryLiteral elements: (String, any QueryValue)...) {
        self.init()
        for (name, value) in elements {
            append(name, value)
        }
    }
}

extension QueryParameters: ExpressibleByArrayLiteral {
    /// Makes parameters from a literal list of pairs.
    public init(arrayLiteral elements: Item...) {
        self.init(elements)
    }
}

/// A value that can stand in a query: strings, numbers, booleans, and arrays or optionals of them.
public protocol QueryValue: Sendable {
    /// The textual values this value is written as (one, or one per array element).
    var queryValues: [String] { get }
    /// Whether the value is a list (written with `[]` under ``QueryParameters/ArrayStyle/brackets``).
    var isArray: Bool { get }
}

extension QueryValue {
    /// Single values are not arrays.
    public var isArray: Bool { false }
}

extension String: QueryValue {
    /// The string itself.
    public var queryValues: [String] { [self] }
}

extension Substring: QueryValue {
    /// The substring as a string.
    public var queryValues: [String] { [String(self)] }
}

extension Int: QueryValue {
    /// The decimal form.
    public var queryValues: [String] { [String(self)] }
}

extension Int64: QueryValue {
    /// The decimal form.
    public var queryValues: [String] { [String(self)] }
}

extension Double: QueryValue {
    /// The shortest form that reads back as the same number.
    public var queryValues: [String] { [String(self)] }
}

extension Bool: QueryValue {
    /// `true` or `false`.
    public var queryValues: [String] { [self ? "true" : "false"] }
}

extension Array: QueryValue where Element: QueryValue {
    /// One value per element, in order.
    public var queryValues: [String] { flatMap(\.queryValues) }
    /// Arrays are arrays.
    public var isArray: Bool { true }
}

extension Optional: QueryValue where Wrapped: QueryValue {
    /// No values for `nil`, so an absent optional parameter is left out.
    public var queryValues: [String] { self?.queryValues ?? [] }
}
