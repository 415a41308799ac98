import Foundation
import TerminalUI

/// The walk-through's options and run, for the composition that provides its server
/// (`bazaar-demo`): the app's side of the demo.
package struct DemoRun: Sendable {
    /// Skip the pauses between steps.
    package var fast: Bool
    /// No colours or animation.
    package var noColor: Bool

    /// A run with these options.
    package init(fast: Bool, noColor: Bool) {
        self.fast = fast
        self.noColor = noColor
    }

    /// Walks through the app against servers from `servers`; a failure is one line on stderr and
    /// its exit code.
    package func run(servers: any DemoServerFactory) async throws {
        let output = TerminalOutput(
            capabilities: .detect(noColorFlag: noColor, environment: ProcessInfo.processInfo.environment))
        let narrator = DemoNarrator(output: output, pause: fast ? .zero : .milliseconds(900))
        do {
            try await DemoScript(narrator: narrator, servers: servers).run()
        } catch let error as AppError {
            FileHandle.standardError.write(Data("bazaar-demo: \(TerminalText.visible(error.description))\n".utf8))
            throw error.exitCode
        }
    }
}
