import ArgumentParser
import Foundation
import TerminalUI

/// `bazaar demo`: the whole app, walked through against a server started in this process.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Watch the whole app run against a built-in server (nothing to set up).",
        discussion: """
            Starts a Bazaar server in this process on a free port with a temporary SQLite file and
            demo data, then walks through the app: two people, registering, browsing and searching,
            a chat with a live reply, renaming, a photo upload, notifications, a message sent while
            the server is down and delivered once it is back, signing out. Everything is removed
            at the end.

            Examples:
              bazaar demo
              bazaar demo --fast --no-color
            """)

    @Flag(help: "Skip the pauses between steps.") var fast = false
    @Flag(help: "No colours or animation.") var noColor = false

    func run() async throws {
        let output = TerminalOutput(
            capabilities: .detect(noColorFlag: noColor, environment: ProcessInfo.processInfo.environment))
        let narrator = DemoNarrator(output: output, pause: fast ? .zero : .milliseconds(900))
        do {
            try await DemoScript(narrator: narrator).run()
        } catch let error as AppError {
            FileHandle.standardError.write(Data("bazaar demo: \(error.description)\n".utf8))
            throw error.exitCode
        }
    }
}
