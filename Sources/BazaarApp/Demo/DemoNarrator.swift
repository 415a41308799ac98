import ConsoleKitTerminal
import TerminalUI

/// Tells the demo as a story: numbered steps with a heading each, the screens drawn under them,
/// and a pause between steps so a person can follow (none with `--fast`).
struct DemoNarrator: Sendable {
    let output: TerminalOutput
    let pause: Duration

    /// Starts step `number` with `title`, after the pause.
    func step(_ number: Int, _ title: String) async throws {
        try await Task.sleep(for: pause)
        output.write("")
        output.write("\(number). ".consoleText(.info) + title.consoleText(.heading))
    }

    /// Draws screen lines, indented under the step.
    func show(_ lines: [ConsoleText]) {
        output.write(lines.map { "   " + $0 })
    }

    /// A line of narration in muted text.
    func note(_ text: String) {
        output.write(("   " + text).consoleText(.muted))
    }

    /// The width screens get: the terminal's, less the indent.
    var width: Int? { output.capabilities.width.map { max($0 - 3, 40) } }
}
