import BazaarAPI
import Foundation
import TestSupport
import Testing

/// Every failure is one line on stderr and an exit code a script can tell apart.
@Suite("bazaar failures: one line, distinct exit codes", .timeLimit(.minutes(3)))
struct CLIFailureTests {
    @Test("a wrong password exits 77 with one line and stores nothing")
    func wrongPassword() async throws {
        try await BazaarTestHarness.withServer { server in
            let user = try CLIUser(server: server.baseURL)
            defer { user.removeFolder() }
            _ = try await user.json(User.self, ["register", "sam", "--name", "Sam"], input: "right-password\n")
            _ = try await user.run(["logout"])
            let wrong = try await user.run(["login", "sam"], input: "wrong-password\n")
            #expect(wrong.exitCode == 77)
            #expect(wrong.errorLines == ["bazaar: wrong username or password"])
            #expect(
                !FileManager.default.fileExists(atPath: user.configFolder.appendingPathComponent("tokens.json").path))
        }
    }

    @Test("an unknown product id exits 66")
    func unknownID() async throws {
        try await BazaarTestHarness.withServer { server in
            let user = try CLIUser(server: server.baseURL)
            defer { user.removeFolder() }
            let outcome = try await user.run(["product", "show", "no-such-product"])
            #expect(outcome.exitCode == 66)
            #expect(outcome.errorLines.count == 1)
            #expect(outcome.stderr.hasPrefix("bazaar: "))
        }
    }

    @Test("a server that is not there exits 69 with one line")
    func serverDown() async throws {
        let user = try CLIUser(server: RefusedAddress.url)
        defer { user.removeFolder() }
        let outcome = try await user.run(["products"])
        #expect(outcome.exitCode == 69)
        #expect(outcome.errorLines.count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("could not"))
    }

    @Test("usage mistakes exit 64 with one line: a missing argument, a bad option value, a bad --server")
    func usage() async throws {
        let user = try CLIUser(server: RefusedAddress.url)
        defer { user.removeFolder() }
        let cases: [([String], String)] = [
            (["chat", "send"], "Missing expected argument"),
            (["products", "--limit", "0"], "--limit must be between 1 and 500"),
            (["products", "--min-price", "cheap"], "--min-price must be a price like 20 or 4.50 (got 'cheap')"),
            (["products", "--min-price", "50", "--max-price", "20"], "--min-price must not be more than --max-price"),
            (["products", "--sort", "cheapest"], "--sort"),
        ]
        for (arguments, message) in cases {
            let outcome = try await user.run(arguments)
            #expect(outcome.exitCode == 64, "\(arguments)")
            #expect(outcome.errorLines.count == 1, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
        let unknown = try await BazaarCLI().run(["frobnicate"])
        #expect(unknown.exitCode == 64)
        #expect(unknown.errorLines == ["bazaar: Unexpected argument 'frobnicate' (see --help)"])
        let badServer = try await BazaarCLI().run(["products", "--server", "ftp://nowhere"])
        #expect(badServer.exitCode == 64)
        #expect(badServer.stderr.contains("--server must be an http or https URL"))
    }

    @Test("a command that needs someone signed in exits 77 when nobody is")
    func signedOut() async throws {
        try await BazaarTestHarness.withServer { server in
            let user = try CLIUser(server: server.baseURL)
            defer { user.removeFolder() }
            for arguments in [
                ["chat", "list"], ["notifications"], ["profile"], ["product", "sell", "--title", "x", "--price", "1"],
            ] {
                let outcome = try await user.run(arguments)
                #expect(outcome.exitCode == 77, "\(arguments)")
                #expect(outcome.errorLines.count == 1)
            }
        }
    }

    @Test("a message sent while the server is down is queued on disk, says so, and exits 0")
    func offlineSendIsQueued() async throws {
        var user: CLIUser?
        var conversationID = ""
        try await CLIChat.with { chat, _ in
            // Keep the buyer's folder past the server's end: copy it before CLIChat removes it.
            let kept = try BazaarTestHarness.makeTemporaryDirectory().appendingPathComponent("buyer")
            try FileManager.default.copyItem(at: chat.buyer.configFolder, to: kept)
            user = CLIUser(server: chat.buyer.server, configFolder: kept)
            conversationID = chat.conversation.id
        }
        let buyer = try #require(user)
        defer { try? FileManager.default.removeItem(at: buyer.configFolder.deletingLastPathComponent()) }
        // The server has stopped: the session resumes offline and the message waits in the outbox.
        let outcome = try await buyer.run(["chat", "send", conversationID, "sent while you were away", "--json"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"state\" : \"queued\""))
        let outbox = try await buyer.run(["outbox"])
        #expect(outbox.stdout.contains("queued"))
        #expect(outbox.stdout.contains("sent while you were away"))
        let flush = try await buyer.run(["outbox", "flush"])
        #expect(flush.exitCode == 69, "still unreachable: \(flush.stderr)")
    }
}
