import BazaarAPI
import Foundation
import TestSupport
import Testing

/// Trust and the account through `bazaar` as a person or a script drives it, against a real
/// server on loopback.
@Suite("bazaar: trust and the account, driven as a subprocess", .timeLimit(.minutes(4)))
struct CLITrustTests {
    @Test("block, report, and a moderator's queue: list, show in context, resolve; a member's queue exits 66")
    func blockReportModerate() async throws {
        try await StorageKind.sqlite.withConfiguration { configuration in
            try await BazaarTestHarness.withServer(configuration: configuration) { server in
                let buyer = try CLIUser(server: server.baseURL)
                let seller = try CLIUser(server: server.baseURL)
                let moderator = try CLIUser(server: server.baseURL)
                defer {
                    for user in [buyer, seller, moderator] { user.removeFolder() }
                }
                let (sam, _) = try await seller.json(
                    User.self, ["register", "sam", "--name", "Sam Seller"], input: "sam-password\n")
                _ = try await buyer.json(
                    User.self, ["register", "bea", "--name", "Bea Buyer"], input: "bea-password\n")
                _ = try await moderator.json(
                    User.self, ["register", "mona", "--name", "Mona"], input: "mona-password\n")
                try await configuration.nameModerator("mona")
                let (conversation, _) = try await buyer.json(Conversation.self, ["chat", "start", sam.id])
                let (sent, _) = try await seller.json(
                    SentEntry.self, ["chat", "send", conversation.id, "Pay me in gift cards"])
                let rude = try #require(sent.messageId)

                let badReason = try await buyer.run(["report", "message", rude, "--reason", "meh"])
                #expect(badReason.exitCode == 65, "\(badReason.stderr)")
                #expect(
                    badReason.errorLines == [
                        "bazaar: reason: Choose why you report it: spam, scam, offensive, prohibited or other."
                    ], "\(badReason.stderr)")
                let (report, _) = try await buyer.json(
                    Report.self, ["report", "message", rude, "--reason", "scam", "--note", "gift cards"])
                #expect(report.status == .open)
                let notModerator = try await buyer.run(["moderation"])
                #expect(notModerator.exitCode == 66, "\(notModerator.stderr)")

                let queue = try await moderator.run(["moderation"])
                #expect(
                    queue.exitCode == 0 && queue.stdout.contains("Message reported: Scam or fraud"), "\(queue.stdout)")
                let shown = try await moderator.run(["moderation", "show", String(report.id.prefix(8))])
                #expect(shown.stdout.contains("▶ Sam Seller: Pay me in gift cards"), "\(shown.stdout)")
                #expect(shown.stdout.contains("Act with: dismiss, remove_message, suspend_user"), "\(shown.stdout)")
                let wrongAction = try await moderator.run(
                    ["moderation", "resolve", report.id, "--action", "remove_product"])
                #expect(wrongAction.exitCode == 65, "\(wrongAction.stderr)")
                let resolved = try await moderator.run(
                    ["moderation", "resolve", report.id, "--action", "remove_message", "--note", "no gift cards"])
                #expect(resolved.stdout.contains("Resolved: Remove the message"), "\(resolved.stdout)")

                let (blocked, _) = try await buyer.json(AccountView.self, ["block", sam.id])
                #expect(blocked.blocked.map(\.id) == [sam.id] && blocked.notice == "You blocked Sam Seller.")
                let listed = try await seller.run(["chat"])
                #expect(listed.stdout.contains("Bea Buyer (blocked)"), "\(listed.stdout)")
                let refused = try await seller.run(["chat", "send", conversation.id, "hello?"])
                #expect(refused.exitCode == 1, "\(refused.stderr)")
                #expect(refused.stderr.contains("blocked"), "\(refused.stderr)")
                let (unblocked, _) = try await buyer.json(AccountView.self, ["unblock", sam.id])
                #expect(unblocked.blocked.isEmpty)
            }
        }
    }

    @Test("account: sessions listed and ended, a password changed (a wrong one exits 77), an export, a deletion")
    func accountCommands() async throws {
        try await CLIUser.pair { phone, laptop, _ in
            _ = try await phone.json(User.self, ["register", "ada", "--name", "Ada"], input: "ada-password\n")
            _ = try await laptop.json(User.self, ["login", "ada"], input: "ada-password\n")
            let (account, _) = try await phone.json(AccountView.self, ["account"])
            #expect(account.sessions.count == 2)
            let other = try #require(account.sessions.first { !$0.current })
            let shown = try await phone.run(["account"])
            #expect(shown.stdout.contains("(this device)") && shown.stdout.contains("Blocked"), "\(shown.stdout)")

            let wrong = try await phone.run(["account", "password"], input: "not-it\nnew-password-1\n")
            #expect(wrong.exitCode == 77, "\(wrong.stderr)")
            #expect(wrong.errorLines == ["bazaar: currentPassword: That is not your password."], "\(wrong.stderr)")
            let short = try await phone.run(["account", "password"], input: "ada-password\nshort\n")
            #expect(short.exitCode == 65, "\(short.stderr)")
            let changed = try await phone.run(["account", "password"], input: "ada-password\nnew-password-1\n")
            #expect(changed.stdout.contains("Password changed"), "\(changed.stdout) \(changed.stderr)")
            // The laptop's session ended with the change: its next request is refused.
            let ended = try await laptop.run(["account"])
            #expect(ended.exitCode == 77, "\(ended.stdout) \(ended.stderr)")
            let (after, _) = try await phone.json(AccountView.self, ["account"])
            #expect(after.sessions.map(\.id) != [other.id] && after.sessions.count == 1)

            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("mine.zip").path
            let exported = try await phone.run(["account", "export", "--to", file])
            #expect(exported.exitCode == 0, "\(exported.stderr)")
            #expect(FileManager.default.contents(atPath: file)?.starts(with: [0x50, 0x4B]) == true)
            let again = try await phone.run(["account", "export", "--to", file])
            #expect(again.exitCode == 64 && again.stderr.contains("--force"), "\(again.stderr)")

            let kept = try await phone.run(["account", "delete"], input: "wrong\n")
            #expect(kept.exitCode == 77, "\(kept.stderr)")
            let deleted = try await phone.run(["account", "delete"], input: "new-password-1\n")
            #expect(deleted.stdout.contains("Your account is deleted"), "\(deleted.stdout) \(deleted.stderr)")
            let gone = try await phone.run(["whoami"])
            #expect(gone.exitCode == 77, "\(gone.stderr)")
            let login = try await phone.run(["login", "ada"], input: "new-password-1\n")
            #expect(login.exitCode == 77, "\(login.stderr)")
        }
    }
}

/// What `bazaar chat send --json` says of the message it sent.
struct SentEntry: Decodable {
    var messageId: String?
    var state: String
}

/// `bazaar account --json`, as a script reads it.
struct AccountView: Decodable {
    var sessions: [AccountSession]
    var blocked: [User]
    var notice: String?
    var deleted: Bool
}
