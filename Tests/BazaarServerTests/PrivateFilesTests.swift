import BazaarServer
import BazaarServerRuntime
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// The database (password hashes, messages) and the signing key are their owner's alone.
@Suite("Files only the server's user may read")
struct PrivateFilesTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test func aNewServerCreatesItsDatabaseAndSigningKeyOwnerOnly() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = BazaarTestHarness.configuration(directory: directory)
        try await BazaarTestHarness.withServer(configuration: configuration) { client in
            _ = try await client.register("ada")
        }
        #expect(try Self.mode(configuration.sqlitePath) == 0o600)
        #expect(try Self.mode(configuration.signingKeyPath) == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".tmp")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func aSigningKeyFileOthersCanReadIsRefused() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = BazaarTestHarness.configuration(directory: directory)
        let key = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        try #require(
            FileManager.default.createFile(
                atPath: configuration.signingKeyPath, contents: Data(key.utf8),
                attributes: [.posixPermissions: 0o644]))
        let error = await #expect(throws: ConfigurationError.self) {
            try await BazaarServer(configuration: configuration)
        }
        #expect(error.map { "\($0)" }?.contains("chmod 600") == true)
    }
}
