import ConsoleKitTerminal

/// An object drawn as aligned `label  value` lines (a product's page, a profile).
public struct FieldList: Sendable {
    /// The fields, top to bottom: a label and its value.
    public var fields: [(label: String, value: ConsoleText)]

    /// Makes a list; fields whose value is `nil` are left out.
    public init(_ fields: [(String, ConsoleText?)]) {
        self.fields = fields.compactMap { label, value in value.map { (label, $0) } }
    }

    /// The lines, values wrapped at `width` columns when given.
    public func render(width: Int?) -> [ConsoleText] {
        let labelWidth = fields.map { TextWidth.columns(of: $0.label) }.max() ?? 0
        let valueWidth = width.map { max($0 - labelWidth - 2, 10) }
        var lines: [ConsoleText] = []
        for field in fields {
            let label = ConsoleText(fragments: [ConsoleTextFragment(string: field.label, style: .muted)]).padded(
                to: labelWidth)
            let indent = ConsoleText(stringLiteral: String(repeating: " ", count: labelWidth + 2))
            for (index, piece) in Self.wrap(field.value, width: valueWidth).enumerated() {
                lines.append(.joined([index == 0 ? label + "  " : indent, piece]))
            }
        }
        return lines
    }

    /// Splits text into lines of at most `width` columns at spaces (and at its own line breaks).
    public static func wrap(_ text: ConsoleText, width: Int?) -> [ConsoleText] {
        let style = text.fragments.first?.style ?? .plain
        var lines: [ConsoleText] = []
        for paragraph in text.description.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let width, TextWidth.columns(of: String(paragraph)) > width else {
                lines.append(ConsoleText(fragments: [ConsoleTextFragment(string: String(paragraph), style: style)]))
                continue
            }
            var current = ""
            for word in paragraph.split(separator: " ") {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if TextWidth.columns(of: candidate) > width, !current.isEmpty {
                    lines.append(ConsoleText(fragments: [ConsoleTextFragment(string: current, style: style)]))
                    current = String(word)
                } else {
                    current = candidate
                }
            }
            lines.append(
                ConsoleText(fragments: [ConsoleTextFragment(string: current, style: style)]).truncated(to: width))
        }
        return text.fragments.count > 1 && lines.count == 1 ? [text] : lines
    }
}
