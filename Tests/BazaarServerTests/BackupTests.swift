import BazaarAPI
import BazaarSQLite
import Foundation
import Synchronization
import TestSupport
import Testing

/// `bazaar-server backup` and `restore` on SQLite, run as an operator runs them: separate
/// processes beside a server that serves and writes.
@Suite("Online backup and restore (SQLite)", .timeLimit(.minutes(3)))
struct BackupTests {
    /// Every message body of a conversation, oldest first.
    static func bodies(in conversationID: String, client: BazaarTestClient, token: String) async throws -> Set<String> {
        var bodies: Set<String> = []
        var cursor: String?
        repeat {
            let query = "?limit=100" + (cursor.map { "&before=\($0)" } ?? "")
            let page = try await client.get(APIRoutes.messages.path(conversationID) + query, token: token)
                .decode(Page<Message>.self)
            bodies.formUnion(page.items.map(\.body))
            cursor = page.nextCursor
        } while cursor != nil
        return bodies
    }

    @Test(
        "a backup taken while four clients send as fast as they can holds every message answered 201 before it began, passes integrity_check, and a server starts on its restore"
    )
    func backupDuringSendsIsRestorable() async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = folder.appendingPathComponent("live.sqlite").path
        let copy = folder.appendingPathComponent("backup.sqlite").path
        let restored = folder.appendingPathComponent("restored.sqlite").path
        let server = try await offPool { try BazaarProcess(sqlitePath: live) }
        let client = BazaarTestClient(baseURL: server.baseURL)
        let ada = try await client.register("ada")
        let bob = try await client.register("bob")
        let conversation = try await client.startConversation(with: ada.user.id, token: bob.tokens.accessToken)

        let acknowledged = Acknowledged()
        let stop = Counter()
        let senders = (0..<4).map { sender in
            Task {
                var index = 0
                while stop.value == 0 {
                    let body = "sender \(sender) message \(index)"
                    index += 1
                    if let answer = try? await client.sendMessage(
                        body, in: conversation.id, token: bob.tokens.accessToken), answer.status == 201
                    {
                        acknowledged.bodies.withLock { _ = $0.insert(body) }
                    }
                }
            }
        }
        while acknowledged.bodies.withLock({ $0.count }) < 200 { try await Task.sleep(for: .milliseconds(10)) }
        let beforeBackup = acknowledged.bodies.withLock { $0 }
        let backup = try await BazaarCLI(executable: "bazaar-server").run(["backup", "--sqlite", live, "--to", copy])
        stop.increment()
        for sender in senders { await sender.value }
        _ = server.terminate()
        #expect(backup.exitCode == 0, "\(backup.stderr)")
        #expect(backup.stdout.contains("written to \(copy) and checked: 2 users"), "\(backup.stdout)")
        #expect(!FileManager.default.fileExists(atPath: copy + ".partial"))
        #expect(
            acknowledged.bodies.withLock { $0.count } > beforeBackup.count, "the senders kept sending during the backup"
        )

        let restore = try await BazaarCLI(executable: "bazaar-server").run([
            "restore", "--from", copy, "--sqlite", restored,
        ])
        #expect(restore.exitCode == 0, "\(restore.stderr)")
        #expect(try SQLiteBackup.verify(restored).messages >= beforeBackup.count, "integrity_check passed")
        let again = try await BazaarCLI(executable: "bazaar-server").run([
            "restore", "--from", copy, "--sqlite", restored,
        ])
        #expect(again.exitCode == 65, "a restore never replaces a database")

        // The signing key came with it: the tokens issued before still work on the restored server.
        let revived = try await offPool { try BazaarProcess(sqlitePath: restored) }
        defer { _ = revived.terminate() }
        let found = try await Self.bodies(
            in: conversation.id, client: BazaarTestClient(baseURL: revived.baseURL), token: bob.tokens.accessToken)
        #expect(beforeBackup.subtracting(found).isEmpty, "lost: \(beforeBackup.subtracting(found).count)")
    }

    @Test("a backup killed with SIGKILL at any moment leaves no file under its name, or one that is whole")
    func killedBackupLeavesNothingThatLooksComplete() async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = folder.appendingPathComponent("live.sqlite").path
        let server = try await offPool { try BazaarProcess(sqlitePath: live, extraArguments: ["--seed-demo"]) }
        defer { _ = server.terminate() }
        var interrupted = 0
        for delay in [0, 1, 2, 5, 10, 20, 40] {
            let copy = folder.appendingPathComponent("backup-\(delay).sqlite").path
            let running = try BazaarCLI(executable: "bazaar-server").start(["backup", "--sqlite", live, "--to", copy])
            try await Task.sleep(for: .milliseconds(delay))
            running.kill9()
            let outcome = await running.wait()
            if FileManager.default.fileExists(atPath: copy) {
                #expect(throws: Never.self, "a file under the name is a whole backup") {
                    try SQLiteBackup.verify(copy)
                }
            } else {
                interrupted += 1
                #expect(outcome.exitCode == 128 + SIGKILL)
            }
        }
        #expect(interrupted > 0, "at least one kill landed before the backup was done")
        let damaged = folder.appendingPathComponent("damaged.sqlite").path
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: damaged))
        let refused = try await BazaarCLI(executable: "bazaar-server").run([
            "restore", "--from", damaged, "--sqlite", folder.appendingPathComponent("r.sqlite").path,
        ])
        #expect(refused.exitCode == 65)
        #expect(refused.stderr.contains("is not a sound Bazaar database"), "\(refused.stderr)")
    }
}

/// The bodies the server answered 201, shared by the sending tasks.
private final class Acknowledged: Sendable {
    let bodies = Mutex<Set<String>>([])
}
