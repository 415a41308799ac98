import BazaarSearch
import BazaarStorage
import Foundation

extension SearchExpression {
    /// The expression for SQLite FTS5's `MATCH`: every phrase quoted as typed (FTS5 finds its
    /// terms with the index's own tokenizer), alternatives joined by `OR`, exclusions by `NOT`.
    public var fts5Match: String {
        alternatives.map { alternative in
            let required = alternative.required.map(Self.fts5Phrase).joined(separator: " AND ")
            guard !alternative.excluded.isEmpty else { return "(\(required))" }
            return "((\(required)) NOT (\(alternative.excluded.map(Self.fts5Phrase).joined(separator: " OR "))))"
        }.joined(separator: " OR ")
    }

    /// `fts5Match` limited to the `title` column.
    public var fts5TitleMatch: String {
        "{title} : (\(fts5Match))"
    }

    private static func fts5Phrase(_ phrase: Phrase) -> String {
        // Typed text never holds a quote (quotes delimit phrases); doubling is FTS5's escape anyway.
        "\"" + phrase.text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
