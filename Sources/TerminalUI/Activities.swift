import ConsoleKitTerminal

/// The spinner drawn while a screen is `loading` (the seed's loading child view); it leaves no
/// trace when it stops.
struct SpinnerActivity: ActivityIndicatorType {
    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    var title: String

    func outputActivityIndicator(to console: any Console, state: ActivityIndicatorState) {
        guard case .active(let tick) = state else { return }
        console.output(
            ConsoleText(fragments: [
                ConsoleTextFragment(string: Self.frames[Int(tick % UInt(Self.frames.count))], style: .info),
                ConsoleTextFragment(string: " " + title, style: .muted),
            ]))
    }
}

/// A progress bar redrawn in place; its last frame stays on screen.
struct ProgressActivity: ActivityIndicatorType {
    var line: ProgressLine
    var width: Int?

    func outputActivityIndicator(to console: any Console, state: ActivityIndicatorState) {
        switch state {
        case .ready, .active: console.output(line.render(width: width))
        case .success: console.output(ProgressLine(title: line.title, fraction: 1).render(width: width))
        case .failure: console.output(line.render(width: width) + " failed".consoleText(.error))
        }
    }
}
