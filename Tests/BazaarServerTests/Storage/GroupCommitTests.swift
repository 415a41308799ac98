import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import BazaarSQLite
@testable import BazaarServer

@Suite("Group commit on SQLite")
struct GroupCommitTests {
    // FULL (2): with GRDB's NORMAL, a commit answered 2xx is lost if the machine stops before the
    // next checkpoint. 10 000: SQLite's 1 000 copied the pages sends keep dirtying ten times as often.
    @Test(
        "the writer syncs each commit, in a write-ahead log copied into the file every 10 000 pages",
        arguments: [("synchronous", "2"), ("journal_mode", "wal"), ("wal_autocheckpoint", "10000")])
    func theWritersSettings(pragma: String, expected: String) async throws {
        try await StoreFixtures.withSQLiteStore { store in
            let value = try await store.pool.writeWithoutTransaction { db in
                try String.fetchOne(db, sql: "PRAGMA \(pragma)")
            }
            #expect(value == expected)
        }
    }

    @Test("with a batch limit of 1 every write commits alone")
    func batchLimitOfOneCommitsEachWrite() async throws {
        try await StoreFixtures.withSQLiteStore(maxBatch: 1) { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let conversation = try await fixtures.conversation(ada, bob)
            let before = store.writer.statistics
            try await withThrowingTaskGroup(of: MessageService.Sent.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await fixtures.send(fixtures.newMessage("m\(index)", in: conversation, from: ada))
                    }
                }
                try await group.waitForAll()
            }
            let after = store.writer.statistics
            #expect(after.writes - before.writes == 20)
            #expect(after.transactions - before.transactions == 20)
        }
    }

    @Test("concurrent sends share transactions, and each is stored exactly once")
    func concurrentSendsAreStoredOnceInFewerTransactions() async throws {
        try await StoreFixtures.withSQLiteStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let conversation = try await fixtures.conversation(ada, bob)
            let before = store.writer.statistics
            // 60 distinct messages, and one key sent 20 times at once.
            var sends = (0..<60).map { fixtures.newMessage("message \($0)", in: conversation, from: ada) }
            sends += (0..<20).map { _ in
                fixtures.newMessage("twenty times", in: conversation, from: bob, key: "shared-key")
            }
            let outcomes = try await withThrowingTaskGroup(of: MessageService.Sent.self) { group in
                for send in sends { group.addTask { try await fixtures.send(send) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let created = outcomes.filter { if case .created = $0 { true } else { false } }
            let replayed = outcomes.filter { if case .replayed = $0 { true } else { false } }
            #expect(created.count == 61)
            #expect(replayed.count == 19)
            let stored = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM messages") }
            #expect(stored == 61)
            let after = store.writer.statistics
            #expect(after.writes - before.writes == 80)
            #expect(
                after.transactions - before.transactions < 40,
                "80 concurrent writes took \(after.transactions - before.transactions) transactions")
        }
    }

    @Test("past its waiting bound a write is refused at once as unavailable (503), and the queued ones still commit")
    func pastTheWaitingBoundAWriteIsRefused() async throws {
        try await StoreFixtures.withSQLiteStore { store in
            let writer = GroupCommitWriter(pool: store.pool, maxQueued: 2)
            let release = DispatchSemaphore(value: 0)
            let holding = Mutex(false)
            async let holder: Void = writer.write { _ in
                holding.withLock { $0 = true }
                release.wait()
            }
            while !holding.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            async let first: Int = writer.write { _ in 1 }
            async let second: Int = writer.write { _ in 2 }
            while writer.queuedWrites < 2 { try await Task.sleep(for: .milliseconds(5)) }
            await #expect(throws: StoreError.unavailable("too many writes waiting")) {
                try await writer.write { _ in 3 }
            }
            release.signal()
            let results = try await (holder, first, second)
            #expect(results.1 == 1 && results.2 == 2)
        }
    }

    @Test("a write that fails rolls back alone; the write sharing its transaction commits")
    func aFailingWriteRollsBackAlone() async throws {
        try await StoreFixtures.withSQLiteStore { store in
            struct Refused: Error {}
            let before = store.writer.statistics
            // The first write holds the writer until the next two have queued up behind it, so
            // those two share one transaction.
            let release = DispatchSemaphore(value: 0)
            let holding = Mutex(false)
            async let holder: Void = store.writer.write { _ in
                holding.withLock { $0 = true }
                release.wait()
            }
            while !holding.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            async let kept: Void = store.writer.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO users (id, username, display_name, password_hash, created_at) VALUES ('u1', 'kept', 'K', 'h', 0)"
                )
            }
            async let refused: (any Error)? = {
                do {
                    try await store.writer.write { db in
                        try db.execute(
                            sql:
                                "INSERT INTO users (id, username, display_name, password_hash, created_at) VALUES ('u2', 'gone', 'G', 'h', 0)"
                        )
                        throw Refused()
                    }
                    return nil
                } catch {
                    return error
                }
            }()
            while store.writer.queuedWrites < 2 { try await Task.sleep(for: .milliseconds(5)) }
            release.signal()
            try await holder
            try await kept
            let error = await refused
            #expect(error is Refused)
            let names = try await store.pool.read { db in
                try String.fetchAll(db, sql: "SELECT username FROM users ORDER BY username")
            }
            #expect(names == ["kept"])
            let after = store.writer.statistics
            #expect(after.transactions - before.transactions == 2, "the holder's, then one for the two writes")
        }
    }
}
