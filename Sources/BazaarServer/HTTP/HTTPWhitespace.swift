extension StringProtocol {
    /// The text without the optional whitespace HTTP allows around a header value or a list item
    /// (spaces and tabs, RFC 9110 §5.6.3). Plain `Substring` work: Foundation's
    /// `trimmingCharacters(in: .whitespaces)` bridges through `NSString` (a few µs on every JSON
    /// request's `Content-Type`) and also trims Unicode spaces that HTTP does not put there.
    var trimmingHTTPWhitespace: SubSequence {
        func isOptionalWhitespace(_ character: Character) -> Bool { character == " " || character == "\t" }
        guard let first = firstIndex(where: { !isOptionalWhitespace($0) }),
            let last = lastIndex(where: { !isOptionalWhitespace($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
