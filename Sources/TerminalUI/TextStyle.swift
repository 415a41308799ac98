import ConsoleKitTerminal

/// The handful of styles every screen uses, so screens look alike and colour means the same thing
/// everywhere.
extension ConsoleStyle {
    /// Titles and headings.
    public static var heading: ConsoleStyle { ConsoleStyle(color: nil, isBold: true) }
    /// Secondary detail: ids, dates, hints.
    public static var muted: ConsoleStyle { ConsoleStyle(color: .brightBlack) }
    /// Money.
    public static var price: ConsoleStyle { ConsoleStyle(color: .green, isBold: true) }
    /// Something that wants attention, like an unread count.
    public static var highlight: ConsoleStyle { ConsoleStyle(color: .yellow, isBold: true) }
}

extension ConsoleText {
    /// The text's display width in terminal columns (East Asian wide characters and emoji count two).
    public var displayWidth: Int { TextWidth.columns(of: description) }

    /// Joins texts, keeping each one's style.
    public static func joined(_ parts: [ConsoleText], separator: ConsoleText = "") -> ConsoleText {
        var result = ConsoleText(fragments: [])
        for (index, part) in parts.enumerated() {
            if index > 0 { result.fragments += separator.fragments }
            result.fragments += part.fragments
        }
        return result
    }

    /// The text cut to at most `columns` display columns, ending in `…` when something was cut.
    public func truncated(to columns: Int) -> ConsoleText {
        guard displayWidth > columns else { return self }
        guard columns > 0 else { return ConsoleText(fragments: []) }
        var remaining = columns - 1
        var result = ConsoleText(fragments: [])
        for fragment in fragments {
            var kept = ""
            for character in fragment.string {
                let width = TextWidth.columns(of: character)
                if width > remaining { break }
                kept.append(character)
                remaining -= width
            }
            if !kept.isEmpty { result.fragments.append(ConsoleTextFragment(string: kept, style: fragment.style)) }
            if remaining == 0 || kept.count < fragment.string.count { break }
        }
        result.fragments.append(ConsoleTextFragment(string: "…", style: fragments.last?.style ?? .plain))
        return result
    }

    /// The text padded with spaces to `columns` display columns.
    public func padded(to columns: Int) -> ConsoleText {
        let missing = columns - displayWidth
        guard missing > 0 else { return self }
        var result = self
        result.fragments.append(ConsoleTextFragment(string: String(repeating: " ", count: missing)))
        return result
    }
}
