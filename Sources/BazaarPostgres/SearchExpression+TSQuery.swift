import BazaarSearch
import BazaarStorage
import Foundation

extension SearchExpression {
    /// The same search as a PostgreSQL `tsquery` literal over the terms: `&` within an
    /// alternative, `<->` within a phrase, `!` for exclusions, `|` between alternatives.
    public var tsquery: String {
        alternatives.map { alternative in
            let parts =
                alternative.required.map(Self.tsqueryPhrase) + alternative.excluded.map { "!" + Self.tsqueryPhrase($0) }
            return "(" + parts.joined(separator: " & ") + ")"
        }.joined(separator: " | ")
    }

    private static func tsqueryPhrase(_ phrase: Phrase) -> String {
        let terms = phrase.terms.map(TSVectorLiteral.quoted)
        return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " <-> ") + ")"
    }
}

/// PostgreSQL `tsvector` literals built from ``SearchTokenizer`` terms, so PostgreSQL indexes
/// exactly the terms SQLite's FTS5 index holds.
enum TSVectorLiteral {
    /// The highest position PostgreSQL keeps; later positions are stored as this one.
    static let maxPosition = 16_383
    /// The most positions PostgreSQL keeps for one lexeme.
    static let maxPositionsPerTerm = 256
    /// The longest lexeme PostgreSQL takes, in bytes: a longer one fails the whole statement
    /// ("word is too long"). Such a term is left out (its position still counts, so phrases
    /// around it are unchanged). No search finds it on either engine anyway: a query is at most
    /// 200 characters.
    static let maxLexemeBytes = 2_046

    /// A vector of title and description terms with their positions. The description starts two
    /// positions after the title ends, so no phrase matches across the two (as in FTS5, whose
    /// phrases never span columns).
    static func vector(title: [String], description: [String]) -> String {
        var positions: [String: [Int]] = [:]
        var order: [String] = []
        func add(_ term: String, at position: Int) {
            guard term.utf8.count <= maxLexemeBytes else { return }
            if positions[term] == nil { order.append(term) }
            guard positions[term, default: []].count < maxPositionsPerTerm else { return }
            positions[term, default: []].append(min(position, maxPosition))
        }
        for (offset, term) in title.enumerated() { add(term, at: offset + 1) }
        for (offset, term) in description.enumerated() { add(term, at: title.count + 2 + offset) }
        return order.map { term in
            quoted(term) + ":" + (positions[term] ?? []).map(String.init).joined(separator: ",")
        }.joined(separator: " ")
    }

    /// A term as a quoted lexeme: `'` doubled, `\` escaped.
    static func quoted(_ term: String) -> String {
        "'" + term.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}
