import ConsoleKitTerminal

/// A table that fits the terminal: a header row, then one line per row, columns aligned.
///
/// When the rows are wider than the terminal, the flexible columns give up width (their cells end
/// in `…`) until the table fits; fixed columns keep theirs.
public struct Table: Sendable {
    /// One column.
    public struct Column: Sendable {
        /// The heading.
        public var title: String
        /// Whether cells are aligned to the right (numbers, money).
        public var alignRight: Bool
        /// Whether the column may be narrowed to fit the width.
        public var flexible: Bool

        /// Makes a column.
        public init(_ title: String, alignRight: Bool = false, flexible: Bool = false) {
            self.title = title
            self.alignRight = alignRight
            self.flexible = flexible
        }
    }

    /// The columns, left to right.
    public var columns: [Column]
    /// The rows; each has one cell per column (missing cells are empty).
    public var rows: [[ConsoleText]]

    /// Makes a table.
    public init(columns: [Column], rows: [[ConsoleText]]) {
        self.columns = columns
        self.rows = rows
    }

    private static let gap = 2
    private static let narrowest = 6

    /// The table's lines, fitting `width` columns when given.
    public func render(width: Int?) -> [ConsoleText] {
        var widths = columns.indices.map { index in
            rows.reduce(TextWidth.columns(of: columns[index].title)) { max($0, cell(index, of: $1).displayWidth) }
        }
        if let width { shrink(&widths, toFit: width) }
        let header = line(columns.map { ConsoleText(stringLiteral: $0.title) }, widths: widths, style: .heading)
        return [header] + rows.map { line($0, widths: widths, style: nil) }
    }

    private func cell(_ index: Int, of row: [ConsoleText]) -> ConsoleText {
        index < row.count ? row[index] : ""
    }

    private func shrink(_ widths: inout [Int], toFit width: Int) {
        let gaps = Self.gap * max(columns.count - 1, 0)
        var excess = widths.reduce(gaps, +) - width
        // Narrow the widest flexible column a column at a time, never below the narrowest width.
        while excess > 0 {
            let candidates = columns.indices.filter { columns[$0].flexible && widths[$0] > Self.narrowest }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { return }
            widths[widest] -= 1
            excess -= 1
        }
    }

    private func line(_ cells: [ConsoleText], widths: [Int], style: ConsoleStyle?) -> ConsoleText {
        var parts: [ConsoleText] = []
        for index in columns.indices {
            var text = cell(index, of: cells).truncated(to: widths[index])
            if let style {
                text = ConsoleText(
                    fragments: text.fragments.map { ConsoleTextFragment(string: $0.string, style: style) })
            }
            let isLast = index == columns.count - 1
            if columns[index].alignRight {
                let padding = String(repeating: " ", count: max(widths[index] - text.displayWidth, 0))
                parts.append(ConsoleText(fragments: [ConsoleTextFragment(string: padding)] + text.fragments))
            } else {
                parts.append(isLast ? text : text.padded(to: widths[index]))
            }
        }
        return .joined(parts, separator: ConsoleText(stringLiteral: String(repeating: " ", count: Self.gap)))
    }
}
