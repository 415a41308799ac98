import BazaarStorage
import Foundation
import Logging
import TestSupport
import Testing

@testable import BazaarPostgres

/// What an operator reads when PostgreSQL cannot be used at start-up: the reason PostgreSQL or the
/// socket gave, not postgres-nio's deliberately empty description of its error, and no password.
@Suite("PostgreSQL start-up errors say why")
struct PostgresErrorTextTests {
    static let genericText = "Generic description"

    @Test("a port nobody listens on is named as refused, and the URL's password is left out")
    func refusedConnection() async throws {
        // Port 1 on loopback: privileged, and nothing here listens on it.
        let url = try PostgresURL("postgres://bazaar:hunter2@127.0.0.1:1/bazaar")
        let error = await #expect(throws: ConfigurationError.self) {
            try await PostgresMigrations.migrate(url: url, logger: Logger(label: "test"))
        }
        let text = error?.description ?? ""
        #expect(text.localizedCaseInsensitiveContains("connection refused"), "\(text)")
        #expect(!text.contains(Self.genericText) && !text.contains("hunter2"), "\(text)")
    }

    @Test(
        "a database that does not exist is named with PostgreSQL's own message and SQLSTATE",
        .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func missingDatabase() async throws {
        let server = try #require(PostgresTestDatabase.serverURL)
        let name = "bazaar_missing_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let error = await #expect(throws: ConfigurationError.self) {
            try await PostgresMigrations.migrate(url: server.with(database: name), logger: Logger(label: "test"))
        }
        let text = error?.description ?? ""
        #expect(text.contains("database \"\(name)\" does not exist (SQLSTATE 3D000)"), "\(text)")
        #expect(!text.contains(Self.genericText), "\(text)")
    }
}
