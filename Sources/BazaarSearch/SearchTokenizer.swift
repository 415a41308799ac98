import GRDB
import Synchronization

/// Turns text into search terms the way the product index does: SQLite FTS5's `porter` stemmer
/// over `unicode61` with diacritics removed ("Bikes" → "bike", "Café" → "cafe").
///
/// SQLite indexes products with this very tokenizer; the PostgreSQL store uses it too, to build
/// its `tsvector`s and `tsquery`s, so both backends see the same terms and give the same answers.
/// It runs on a private in-memory SQLite database, made with the tokenizer on first use.
public final class SearchTokenizer: Sendable {
    /// The FTS5 tokenizer arguments, exactly as the SQLite index declares them.
    public static let arguments = ["porter", "unicode61", "remove_diacritics", "2"]

    /// The one tokenizer the server uses.
    public static let shared = SearchTokenizer()

    /// The in-memory database and the tokenizer made on it, once; the lock also serialises
    /// tokenizing, which runs in SQLite's C code on that one tokenizer.
    private struct Loaded {
        let database: DatabaseQueue
        let tokenizer: any FTS5Tokenizer
    }

    private let loaded = Mutex<Loaded?>(nil)

    /// Makes a tokenizer; its database opens on first use.
    public init() {}

    /// The terms of `text`, in order.
    public func terms(in text: String) throws -> [String] {
        try terms(in: [text])[0]
    }

    /// The terms of each text, in order.
    public func terms(in texts: [String]) throws -> [[String]] {
        try loaded.withLock { loaded in
            let tokenizer: any FTS5Tokenizer
            if let existing = loaded {
                tokenizer = existing.tokenizer
            } else {
                let database = try DatabaseQueue()
                tokenizer = try database.inDatabase { db in
                    try db.makeTokenizer(FTS5TokenizerDescriptor(components: Self.arguments))
                }
                loaded = Loaded(database: database, tokenizer: tokenizer)
            }
            return try texts.map { text in try tokenizer.tokenize(document: text).map(\.token) }
        }
    }
}
