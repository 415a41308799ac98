import BazaarServer
import Foundation
import ProcessSupport
import TestSupport
import Testing

@testable import BazaarSQLite

/// One server process per SQLite file: the store's session memo is exact only if it makes every write.
@Suite("One bazaar-server per SQLite file")
struct SQLiteFileLockTests {
    @Test("a second lock on a held file is refused; once the first is gone the file can be locked again")
    func secondLockIsRefusedUntilTheFirstIsGone() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bazaar.sqlite").path
        var first: SQLiteFileLock? = try SQLiteFileLock(databasePath: path)
        #expect(throws: SQLiteFileLock.LockError.inUse(database: path)) { try SQLiteFileLock(databasePath: path) }
        #expect(first != nil)
        first = nil
        // A child process another test forks in this instant holds a copy of the descriptor (and
        // so the lock) until it execs; the lock is free once that copy is gone too.
        let deadline = ContinuousClock.now + .seconds(5)
        var relocked = false
        while !relocked {
            do throws(SQLiteFileLock.LockError) {
                _ = try SQLiteFileLock(databasePath: path)
                relocked = true
            } catch {
                guard error == .inUse(database: path), ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    @Test("a second bazaar-server on the same file exits with the reason; the first keeps serving")
    func secondServerProcessIsRefused() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("bazaar.sqlite").path
        let log = directory.appendingPathComponent("second.log").path
        let first = try await offPool { try BazaarProcess(sqlitePath: database) }
        defer { first.terminate() }
        await #expect(throws: BazaarProcess.StartError.self) {
            try await offPool { try BazaarProcess(sqlitePath: database, standardErrorPath: log) }
        }
        let reason = try String(contentsOfFile: log, encoding: .utf8)
        #expect(reason.contains("is in use by another bazaar-server"), "\(reason)")
        expectStatus(try await BazaarTestClient(baseURL: first.baseURL).get("/health"), 200)
    }
}
