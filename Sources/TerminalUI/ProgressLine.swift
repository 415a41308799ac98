import ConsoleKitTerminal

/// One frame of a progress bar: `Uploading photo [=========           ]  45%`.
public struct ProgressLine: Sendable, Equatable {
    /// What is in progress.
    public var title: String
    /// How much is done, from 0 to 1.
    public var fraction: Double

    /// Makes a frame; `fraction` is clamped to 0...1.
    public init(title: String, fraction: Double) {
        self.title = title
        self.fraction = min(max(fraction.isFinite ? fraction : 0, 0), 1)
    }

    /// The whole percentage done.
    public var percent: Int { Int((fraction * 100).rounded(.down)) }

    /// The frame, with a bar that fits `width` columns (30 wide when there is no limit).
    public func render(width: Int?) -> ConsoleText {
        let suffix = String(repeating: " ", count: 4 - String(percent).count) + "\(percent)%"
        let available = (width ?? 80) - TextWidth.columns(of: title) - suffix.count - 3
        let barWidth = max(min(available, 30), 5)
        let filled = Int((Double(barWidth) * fraction).rounded(.down))
        return ConsoleText(fragments: [
            ConsoleTextFragment(string: title + " ["),
            ConsoleTextFragment(string: String(repeating: "=", count: filled), style: .success),
            ConsoleTextFragment(string: String(repeating: " ", count: barWidth - filled) + "]" + suffix),
        ])
    }
}
