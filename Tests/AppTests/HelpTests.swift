import TestSupport
import Testing

@Suite("bazaar --help")
struct HelpTests {
    static let commands: [[String]] = [
        [], ["web"], ["register"], ["login"], ["logout"], ["whoami"], ["profile"], ["profile", "show"],
        ["profile", "rename"],
        ["profile", "photo"], ["products"], ["product"], ["product", "show"], ["product", "sell"], ["chat"],
        ["chat", "list"],
        ["chat", "start"], ["chat", "send"], ["chat", "open"], ["notifications"], ["saved"], ["outbox"],
        ["outbox", "list"],
        ["outbox", "flush"],
    ]

    // One process at a time: 23 at once held both cores for a second and stalled the timing tests beside them.
    @Test("every command's help has examples and exits 0", .serialized, arguments: commands)
    func helpHasExamples(command: [String]) async throws {
        let outcome = try await BazaarCLI().run(command + ["--help"])
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout.contains("Examples:"), "bazaar \(command.joined(separator: " ")) --help")
        #expect(outcome.stdout.contains("bazaar \(command.first ?? "")"))
    }
}
