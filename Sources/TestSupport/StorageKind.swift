import BazaarServer
import BazaarServerRuntime
import BazaarStorage
import Foundation
import Logging

/// The storage backends a test can run a server or a store on.
public enum StorageKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A temporary SQLite file.
    case sqlite
    /// A database of its own on the test PostgreSQL server.
    case postgres

    /// The backends this run can use: SQLite always, PostgreSQL beside `scripts/with-postgres.sh`.
    public static var available: [StorageKind] {
        PostgresTestDatabase.isAvailable ? [.sqlite, .postgres] : [.sqlite]
    }

    public var description: String { rawValue }

    /// A signing key every test server on PostgreSQL shares (replicas must sign alike).
    public static let sharedSigningKey = Data((0..<32).map { UInt8($0) &* 7 &+ 3 })

    /// Runs `body` with a server configuration on this backend (port 0, bcrypt cost 4), whose
    /// database is removed afterwards.
    public func withConfiguration<Result: Sendable>(
        clock: TestClock? = nil, _ body: (BazaarServerConfiguration) async throws -> Result
    ) async throws -> Result {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = BazaarTestHarness.configuration(directory: directory, clock: clock)
        switch self {
        case .sqlite:
            return try await body(configuration)
        case .postgres:
            return try await PostgresTestDatabase.with { database in
                configuration.postgres = database
                configuration.signingKey = Self.sharedSigningKey
                return try await body(configuration)
            }
        }
    }

    /// Runs `body` with a store on this backend, closed and removed afterwards.
    public func withStore<Result: Sendable>(
        clock: TestClock? = nil, _ body: (any BazaarStore) async throws -> Result
    ) async throws -> Result {
        try await withConfiguration(clock: clock) { configuration in
            let backend = try await StorageEngines.openStore(
                configuration: configuration, logger: TestServer.quietLogger(label: "storage-test"))
            do {
                let result = try await body(backend.store)
                await backend.close()
                return result
            } catch {
                await backend.close()
                throw error
            }
        }
    }
}
