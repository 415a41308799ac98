import Foundation
import TestSupport
import Testing

@testable import BazaarApp

@Suite("Id prefixes, as git takes short hashes")
struct KnownIDsTests {
    static func book() throws -> (KnownIDs, URL) {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        return (KnownIDs(file: folder.appendingPathComponent("known-ids.txt")), folder)
    }

    @Test("a unique prefix of an id shown here resolves to the full id")
    func uniquePrefix() throws {
        let (ids, folder) = try Self.book()
        defer { try? FileManager.default.removeItem(at: folder) }
        ids.record(["3f2a9c10-0000-4000-8000-000000000001", "9d4b7e22-0000-4000-8000-000000000002"])
        #expect(try ids.resolve("3f2a", what: "product") == "3f2a9c10-0000-4000-8000-000000000001")
        #expect(
            try ids.resolve("9D4B7E", what: "product") == "9d4b7e22-0000-4000-8000-000000000002", "case does not matter"
        )
    }

    @Test("a prefix of two ids is refused with a clear message and a usage exit")
    func ambiguousPrefix() throws {
        let (ids, folder) = try Self.book()
        defer { try? FileManager.default.removeItem(at: folder) }
        ids.record(["3f2a9c10-0000-4000-8000-000000000001", "3f2a1111-0000-4000-8000-000000000002"])
        #expect(throws: AppError.self) { try ids.resolve("3f2a", what: "conversation") }
        do {
            _ = try ids.resolve("3f2a", what: "conversation")
        } catch {
            #expect(error.kind == .usage)
            #expect(
                error.description.contains("the conversation id '3f2a' is ambiguous: it starts 2 ids"),
                "\(error.description)")
        }
        #expect(try ids.resolve("3f2a9", what: "conversation") == "3f2a9c10-0000-4000-8000-000000000001")
    }

    @Test("an id never shown here, or a full id, is passed on as typed for the server to answer")
    func unknownPassesThrough() throws {
        let (ids, folder) = try Self.book()
        defer { try? FileManager.default.removeItem(at: folder) }
        ids.record(["3f2a9c10-0000-4000-8000-000000000001"])
        #expect(try ids.resolve("beef", what: "product") == "beef")
        #expect(
            try ids.resolve("3f2a9c10-0000-4000-8000-000000000001", what: "product")
                == "3f2a9c10-0000-4000-8000-000000000001")
        #expect(throws: AppError.self) { try ids.resolve("  ", what: "product") }
    }

    @Test("the book keeps the newest ids up to its capacity")
    func capacity() throws {
        let (ids, folder) = try Self.book()
        defer { try? FileManager.default.removeItem(at: folder) }
        ids.record((0..<(KnownIDs.capacity + 10)).map { String(format: "%08x-old", $0) })
        ids.record(["00000000-old"])
        #expect(try ids.resolve("00000000", what: "product") == "00000000-old", "recorded again: newest")
        #expect(try ids.resolve("00000001", what: "product") == "00000001", "pushed out: passed on as typed")
    }
}
