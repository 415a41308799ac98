import Foundation

/// The ids this device has shown, so a person can type any unique prefix of one (as git takes a
/// short commit hash): tables show the first ``shortLength`` characters, and every command that
/// takes an id resolves a prefix against this book. A full id always works, shown here or not.
struct KnownIDs: Sendable {
    /// How many characters a table shows of an id.
    static let shortLength = 8
    /// How many ids the book keeps (the newest).
    static let capacity = 5000

    /// The file the book lives in (one id per line, oldest first).
    let file: URL

    /// The short form a table shows.
    static func short(_ id: String) -> String { String(id.prefix(shortLength)) }

    /// Remembers `ids` as shown (moving those already known to the newest end).
    func record(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        let fresh = Set(ids)
        var all = load().filter { !fresh.contains($0) }
        var seen = Set<String>()
        all += ids.filter { seen.insert($0).inserted }
        let kept = all.suffix(Self.capacity)
        // A lost write only means a prefix needs more characters next time; the full id works.
        try? Data((kept.joined(separator: "\n") + "\n").utf8).write(to: file, options: .atomic)
    }

    /// The full id `text` stands for: itself when it is a full id or matches nothing shown here
    /// (the server then answers for it), the one id it starts when unique.
    ///
    /// - Throws: ``AppError`` with exit 64 when the prefix starts more than one id shown here.
    func resolve(_ text: String, what: String) throws(AppError) -> String {
        let prefix = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !prefix.isEmpty else { throw AppError(.usage, "the \(what) id is empty") }
        let matches = load().filter { $0.hasPrefix(prefix) }
        if matches.contains(prefix) { return prefix }
        switch matches.count {
        case 0: return text
        case 1: return matches[0]
        default:
            let examples = matches.suffix(3).map { String($0.prefix(prefix.count + 4)) + "…" }.joined(separator: ", ")
            throw AppError(
                .usage,
                "the \(what) id '\(text)' is ambiguous: it starts \(matches.count) ids (\(examples)); type more of it")
        }
    }

    private func load() -> [String] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
    }
}
