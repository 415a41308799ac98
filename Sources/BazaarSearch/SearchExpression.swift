/// A product search in web-search syntax, parsed once into what both indexes run: alternatives
/// (split by `or`), each with phrases that must appear and phrases that must not.
///
/// The rules are PostgreSQL's `websearch_to_tsquery`'s: `road bike` needs both words,
/// `"road bike"` needs them together in that order, `-kids` excludes, and `bike or scooter`
/// accepts either (`a b or c` is `(a and b) or c`). Words are compared as terms
/// (``SearchTokenizer``), so "Bikes" finds "bike". Parsing here, not in each database, is what
/// keeps SQLite and PostgreSQL answering alike.
public struct SearchExpression: Sendable, Equatable {
    /// A word or quoted phrase: what was typed, and its terms in order.
    public struct Phrase: Sendable, Equatable {
        /// The text as typed, without quotes.
        public let text: String
        /// Its terms; one for a plain word, more for a phrase (or a word like "e-bike").
        public let terms: [String]
    }

    /// One alternative: every `required` phrase appears and no `excluded` one does.
    public struct Alternative: Sendable, Equatable {
        /// Phrases that must appear (at least one).
        public var required: [Phrase] = []
        /// Phrases that must not appear.
        public var excluded: [Phrase] = []

        /// An alternative of these phrases.
        package init(required: [Phrase] = [], excluded: [Phrase] = []) {
            self.required = required
            self.excluded = excluded
        }
    }

    /// What a product must satisfy one of.
    public let alternatives: [Alternative]

    /// An expression of these alternatives (parse text with ``parse(_:tokenizer:)``).
    package init(alternatives: [Alternative]) {
        self.alternatives = alternatives
    }

    /// Why a search cannot be run.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Nothing in the text is a word (only punctuation, or only `or`).
        case noWords
        /// An alternative only excludes (`-kids`, `bike or -kids`): there is nothing to look for.
        case onlyExclusions

        /// A sentence for the API's error body.
        public var description: String {
            switch self {
            case .noWords: "must contain a word to look for"
            case .onlyExclusions: "must say what to look for, not only what to leave out"
            }
        }
    }

    /// Parses `text`; `nil` when it is blank (no search at all).
    public static func parse(_ text: String, tokenizer: SearchTokenizer = .shared) throws -> SearchExpression? {
        guard !text.allSatisfy(\.isWhitespace) else { return nil }
        let items = SearchSyntax.items(in: text)
        let terms = try tokenizer.terms(in: items.map(\.text))
        var alternatives: [Alternative] = []
        var current = Alternative()
        for (item, itemTerms) in zip(items, terms) {
            if item.isOr {
                if !current.required.isEmpty || !current.excluded.isEmpty { alternatives.append(current) }
                current = Alternative()
                continue
            }
            guard !itemTerms.isEmpty else { continue }
            let phrase = Phrase(text: item.text, terms: itemTerms)
            if item.isExcluded { current.excluded.append(phrase) } else { current.required.append(phrase) }
        }
        if !current.required.isEmpty || !current.excluded.isEmpty { alternatives.append(current) }
        guard !alternatives.isEmpty else { throw Failure.noWords }
        guard alternatives.allSatisfy({ !$0.required.isEmpty }) else { throw Failure.onlyExclusions }
        return SearchExpression(alternatives: alternatives)
    }

    /// Whether any alternative excludes something.
    public var hasExclusions: Bool {
        alternatives.contains { !$0.excluded.isEmpty }
    }

    /// The same search without its exclusions: what a title must contain to rank first.
    public var requiredOnly: SearchExpression {
        SearchExpression(alternatives: alternatives.map { Alternative(required: $0.required) })
    }
}

/// Splits web-search text into items: words, quoted phrases, `-` exclusions and `or`.
enum SearchSyntax {
    /// One item of the text.
    struct Item: Equatable {
        /// The word or phrase (without quotes or the leading `-`).
        var text: String
        /// Preceded by `-`.
        var isExcluded = false
        /// The unquoted word `or`.
        var isOr = false
    }

    /// The items of `text`, in order.
    static func items(in text: String) -> [Item] {
        var items: [Item] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                index = text.index(after: index)
                continue
            }
            var excluded = false
            if character == "-" {
                excluded = true
                index = text.index(after: index)
                guard index < text.endIndex, !text[index].isWhitespace else { continue }
            }
            if text[index] == "\"" {
                let start = text.index(after: index)
                let end = text[start...].firstIndex(of: "\"") ?? text.endIndex
                items.append(Item(text: String(text[start..<end]), isExcluded: excluded))
                index = end < text.endIndex ? text.index(after: end) : end
                continue
            }
            let end = text[index...].firstIndex { $0.isWhitespace || $0 == "\"" } ?? text.endIndex
            let word = String(text[index..<end])
            if !excluded, word.lowercased() == "or" {
                items.append(Item(text: word, isOr: true))
            } else {
                items.append(Item(text: word, isExcluded: excluded))
            }
            index = end
        }
        return items
    }
}
