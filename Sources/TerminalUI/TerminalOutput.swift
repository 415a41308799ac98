import ConsoleKitTerminal

/// Where the app draws: standard output for what a screen shows, standard error for problems.
///
/// Styles are written only when ``TerminalCapabilities/colors`` says so; spinners and progress
/// bars animate only when ``TerminalCapabilities/animates`` does, and otherwise print a plain line
/// (or nothing), so piped output stays clean.
public final class TerminalOutput: Sendable {
    /// What the output can do.
    public let capabilities: TerminalCapabilities
    private let console: Terminal

    /// Makes an output over the process's standard output and error.
    public init(capabilities: TerminalCapabilities) {
        self.capabilities = capabilities
        console = Terminal()
        console.stylizedOutputOverride = capabilities.colors
    }

    /// Writes lines to standard output, control characters shown visibly (``TerminalText``).
    public func write(_ lines: [ConsoleText]) {
        for line in lines { console.output(Self.visible(line)) }
    }

    /// Writes one line to standard output, control characters shown visibly (``TerminalText``).
    public func write(_ line: ConsoleText) {
        console.output(Self.visible(line))
    }

    /// Writes JSON for scripts, followed by a newline; the C1 and DEL characters `JSONEncoder`
    /// leaves raw are written as `\u` escapes (the same JSON, nothing a terminal acts on).
    public func writePlain(_ text: String) {
        console.output(ConsoleText(stringLiteral: TerminalText.jsonSafe(text)))
    }

    /// Writes one line to standard error (a server's message may be in it), control characters
    /// shown visibly.
    public func problem(_ line: String) {
        console.report(error: TerminalText.visible(line), newLine: true)
    }

    /// `line` with the text of every fragment made visible; styles are kept.
    static func visible(_ line: ConsoleText) -> ConsoleText {
        ConsoleText(
            fragments: line.fragments.map {
                ConsoleTextFragment(string: TerminalText.visible($0.string), style: $0.style)
            })
    }

    /// Runs `work` while a spinner titled `title` turns (on a terminal; silently elsewhere).
    public func loading<T: Sendable>(_ title: String, _ work: @Sendable () async throws -> T) async rethrows -> T {
        guard capabilities.animates else { return try await work() }
        let indicator = SpinnerActivity(title: TerminalText.visible(title)).newActivity(for: console)
        indicator.start(refreshRate: 80)
        defer { indicator.succeed() }
        return try await work()
    }

    /// Starts a progress bar; report progress to the returned handle, then call ``ProgressHandle/finish(succeeded:)``.
    public func progress(_ title: String) -> ProgressHandle {
        ProgressHandle(title: title, output: self, console: console)
    }
}

/// A running progress bar: animated on a terminal, one final line elsewhere.
public final class ProgressHandle: Sendable {
    private let indicator: ActivityIndicator<ProgressActivity>?
    private let title: String
    private let output: TerminalOutput

    init(title: String, output: TerminalOutput, console: Terminal) {
        self.title = TerminalText.visible(title)
        self.output = output
        if output.capabilities.animates {
            let indicator = ProgressActivity(
                line: ProgressLine(title: title, fraction: 0), width: output.capabilities.width
            )
            .newActivity(for: console)
            indicator.start(refreshRate: 60)
            self.indicator = indicator
        } else {
            indicator = nil
        }
    }

    /// Sets how much is done, from 0 to 1 (safe from any thread).
    public func update(_ fraction: Double) {
        indicator?.activity.line = ProgressLine(title: title, fraction: fraction)
    }

    /// Stops the bar, leaving its last frame (100% when it succeeded).
    public func finish(succeeded: Bool) {
        if let indicator {
            if succeeded { indicator.succeed() } else { indicator.fail() }
        } else if succeeded {
            output.write(ProgressLine(title: title, fraction: 1).render(width: output.capabilities.width))
        }
    }
}
