import ConsoleKitTerminal

/// A failure as a screen shows it: what went wrong, then what to do next.
///
///     ✗ The server could not be reached.
///       → Check your connection and try again.
public struct ErrorPanel: Sendable, Equatable {
    /// What went wrong, in a sentence.
    public var message: String
    /// What the person can do next, in a sentence.
    public var suggestion: String

    /// Makes a panel.
    public init(message: String, suggestion: String) {
        self.message = message
        self.suggestion = suggestion
    }

    /// The panel's lines.
    public func render() -> [ConsoleText] {
        [
            ConsoleText(fragments: [
                ConsoleTextFragment(string: "✗ " + message, style: ConsoleStyle(color: .red, isBold: true))
            ]),
            ConsoleText(fragments: [ConsoleTextFragment(string: "  → " + suggestion, style: .warning)]),
        ]
    }

    /// The panel as one line (for standard error, where scripts read it).
    public var oneLine: String { "\(message) \(suggestion)" }
}
