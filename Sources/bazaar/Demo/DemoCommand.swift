import ArgumentParser

/// `bazaar demo`: the whole app, walked through against a server started in this process.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Watch the whole app run against a built-in server (nothing to set up).",
        discussion: "Examples:\n  bazaar demo\n  bazaar demo --fast --no-color")

    @Flag(help: "Skip the pauses between steps.") var fast = false
    @Flag(help: "No colours or animation.") var noColor = false

    func run() async throws {
        throw ValidationError("not yet")
    }
}
