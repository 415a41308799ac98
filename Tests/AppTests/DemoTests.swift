import Foundation
import TestSupport
import Testing

@Suite("bazaar-demo", .timeLimit(.minutes(3)))
struct DemoTests {
    @Test("walks the whole app, exits 0 and leaves nothing behind in the temporary folder")
    func demoRunsAndCleansUp() async throws {
        let temporary = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let outcome = try await BazaarCLI(executable: "bazaar-demo").run(
            ["--fast", "--no-color"], environment: ["TMPDIR": temporary.path])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        for step in [
            "Dana installs the app and registers", "searches for “bike”", "She opens the road bike",
            "The reply, with a photo, arrives on Dana's open screen, live", "📷 photo 1 of 1  800×",
            "Uploading photo.png", "100%",
            "(queued)", "The outbox delivers the message, exactly once", "(sent)",
            "Dana saves the bike", "A product you saved costs less now", "You offered 200.00 EUR",
            "◆ Dana K. Scully offered 200.00 EUR: waiting for your answer (/accept, /decline)",
            "accepted: reserved for Dana K. Scully", "Road bike  €225.00  sold",
            "Dana K. Scully: Exactly as described, and a fair price.", "Ada Lovelace: Friendly and on time.",
            "✓ Reported: Message reported: Scam or fraud", "✓ You blocked Eve Offers.",
            "Eve writes again: refused (403 blocked)", "bazaar-server moderators add cyd",
            "▶ Eve Offers: Pay me in gift cards", "Resolved: Suspend the user", "Eve's session ended at once",
            "A moderator acted on your report", "Both sign out",
        ] {
            #expect(outcome.stdout.contains(step), "missing: \(step)")
        }
        #expect(!outcome.stdout.contains("\u{1B}["), "--no-color writes no escape codes")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(leftovers.isEmpty, "the demo removed its files")
    }

    @Test("the app it walks through is the bazaar executable's, which links no server")
    func appLinksNoServer() throws {
        // The app's symbols, read from the built binary: none of the server's or its engines'.
        let binary = try Data(contentsOf: URL(fileURLWithPath: BazaarCLI().path))
        for module in ["12BazaarServer", "13BazaarStorage", "12BazaarSQLite", "14BazaarPostgres", "11PostgresNIO"] {
            #expect(binary.range(of: Data(module.utf8)) == nil, "bazaar holds \(module)")
        }
        let demo = try Data(contentsOf: URL(fileURLWithPath: BazaarCLI(executable: "bazaar-demo").path))
        #expect(demo.range(of: Data("12BazaarServer".utf8)) != nil, "the check can see a module that is there")
    }
}
