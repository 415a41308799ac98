import BazaarStorage
import Foundation
import Networking
import Session
import Testing

@Suite("FileTokenStore")
struct FileTokenStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bazaar-tokens-\(UUID().uuidString)")
    var file: URL { folder.appendingPathComponent("session/tokens.json") }
    let tokens = AuthTokens(
        accessToken: "access-secret", refreshToken: "refresh-secret",
        expiresAt: Date(timeIntervalSince1970: 1_900_000_000))

    @Test("saved tokens load back in a new store on the same file")
    func roundTrip() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FileTokenStore(url: file).save(tokens)
        #expect(try await FileTokenStore(url: file).load() == tokens)
    }

    @Test("the file is created readable and writable by its owner only (0600)")
    func ownerOnlyPermissions() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FileTokenStore(url: file).save(tokens)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("a crash mid-write leaves the old tokens: a stray temporary file is ignored")
    func interruptedWriteKeepsOldTokens() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileTokenStore(url: file)
        try await store.save(tokens)
        // What a crash between write and rename leaves behind: a half-written temporary beside the file.
        try Data("{\"accessToken\":\"half".utf8).write(to: folder.appendingPathComponent("session/.tokens.json.x.tmp"))
        #expect(try await store.load() == tokens)
        var newer = tokens
        newer.accessToken = "newer"
        try await store.save(newer)
        #expect(try await FileTokenStore(url: file).load() == newer)
    }

    @Test("clear deletes the file; loading then finds nothing")
    func clearDeletes() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileTokenStore(url: file)
        try await store.save(tokens)
        try await store.clear()
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try await store.load() == nil)
        try await store.clear()  // clearing twice is fine
    }

    @Test("a damaged file is a typed error that names the file and shows no contents")
    func damagedFileIsTypedError() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not json refresh-secret".utf8).write(to: file)
        await #expect(throws: FileTokenStore.StoreError.unreadable(path: file.path)) {
            try await FileTokenStore(url: file).load()
        }
        #expect(!FileTokenStore.StoreError.unreadable(path: file.path).description.contains("refresh-secret"))
    }
}
