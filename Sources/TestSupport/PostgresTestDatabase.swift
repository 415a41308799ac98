import BazaarPostgres
import BazaarServer
import BazaarStorage
import Foundation
import Logging
import PostgresNIO

/// Databases of their own for tests, on the PostgreSQL server `scripts/with-postgres.sh` starts
/// (found through `BAZAAR_TEST_POSTGRES_URL`). Each test creates one, so tests run in parallel
/// without seeing each other's rows, and drops it afterwards.
public enum PostgresTestDatabase {
    /// The server's URL, when tests run beside one.
    public static var serverURL: PostgresURL? {
        guard let text = ProcessInfo.processInfo.environment["BAZAAR_TEST_POSTGRES_URL"], !text.isEmpty else {
            return nil
        }
        return try? PostgresURL(text)
    }

    /// Whether PostgreSQL tests can run here.
    public static var isAvailable: Bool { serverURL != nil }

    /// Why PostgreSQL tests were skipped, for `.enabled(if:)` comments.
    public static let skipReason =
        "BAZAAR_TEST_POSTGRES_URL is not set: run the tests through scripts/with-postgres.sh to include PostgreSQL"

    /// Errors of the helper itself.
    public enum HelperError: Error, CustomStringConvertible {
        /// `BAZAAR_TEST_POSTGRES_URL` is missing or not a URL.
        case notConfigured

        public var description: String { PostgresTestDatabase.skipReason }
    }

    /// A new empty database on the test server; its URL.
    public static func create() async throws -> PostgresURL {
        guard let server = serverURL else { throw HelperError.notConfigured }
        let name = "bazaar_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        // A database name cannot be a bind parameter; this one is made of [a-z0-9_] only.
        try await onServer(server) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        return server.with(database: name)
    }

    /// Drops a database made by ``create()`` (closing whatever is still connected to it).
    public static func drop(_ database: PostgresURL) async {
        guard let server = serverURL, database.database.hasPrefix("bazaar_test_") else { return }
        try? await onServer(server) { connection, logger in
            try await connection.query(
                PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(database.database) WITH (FORCE)"), logger: logger)
        }
    }

    /// Ends every replica's event-listener connection to `database` (as a dropped network link
    /// would); returns how many were ended.
    public static func terminateListeners(on database: PostgresURL) async throws -> Int {
        guard let server = serverURL else { throw HelperError.notConfigured }
        let ended = Counter()
        try await onServer(server) { connection, logger in
            let rows = try await connection.query(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE application_name = \(PostgresURL.listenerApplicationName) AND datname = \(database.database)
                """, logger: logger)
            for try await terminated in rows.decode(Bool.self) where terminated { ended.increment() }
        }
        return ended.value
    }

    /// Marks every session of `userId` revoked in the table alone, announcing nothing (as an
    /// operator's hand would): what a replica still accepts then, it answers from its memory.
    public static func revokeSessionsSilently(of userId: String, on database: PostgresURL) async throws {
        try await onServer(database) { connection, logger in
            try await connection.query(
                "UPDATE sessions SET revoked_at = 1 WHERE user_id = \(userId) AND revoked_at IS NULL", logger: logger)
        }
    }

    /// Adds a message to a conversation in the table alone, announcing nothing (as an operator's
    /// hand would): a replica that does not show it answers the page from its memory.
    public static func addMessageSilently(
        _ body: String, in conversationId: String, from senderId: String, on database: PostgresURL
    ) async throws {
        try await onServer(database) { connection, logger in
            try await connection.query(
                """
                INSERT INTO messages (id, conversation_id, sender_id, body, created_at)
                VALUES (\(UUID().uuidString.lowercased()), \(conversationId), \(senderId), \(body), 1)
                """, logger: logger)
        }
    }

    /// Brings the planner's statistics on `database` up to date, as autovacuum would in time.
    public static func analyse(_ database: PostgresURL) async throws {
        try await onServer(database) { connection, logger in
            try await connection.query("ANALYZE", logger: logger)
        }
    }

    /// Runs `body` with a new database, dropped afterwards.
    public static func with<Result: Sendable>(_ body: (PostgresURL) async throws -> Result) async throws -> Result {
        let database = try await create()
        do {
            let result = try await body(database)
            await drop(database)
            return result
        } catch {
            await drop(database)
            throw error
        }
    }

    /// Runs `body` on one connection to a new, migrated database (dropped afterwards), with
    /// autovacuum off on `tables`: a plan test must not have an `ANALYZE` replan its statement
    /// behind its back.
    public static func withMigratedConnection(
        autovacuumOffOn tables: [String], _ body: (PostgresConnection, Logger) async throws -> Void
    ) async throws {
        try await with { database in
            let logger = TestServer.quietLogger(label: "postgres-plan-test")
            _ = try await PostgresMigrations.migrate(url: database, logger: logger)
            try await onServer(database) { connection, logger in
                for table in tables {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "ALTER TABLE \(table) SET (autovacuum_enabled = false)"),
                        logger: logger)
                }
                try await body(connection, logger)
            }
        }
    }

    /// The plan PostgreSQL holds on `connection` for the prepared statement `name` (postgres-nio
    /// names a statement after its type) run with `arguments` (SQL literals, comma-separated),
    /// as `EXPLAIN EXECUTE` prints it.
    public static func plan(
        ofPrepared name: String, arguments: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> String {
        let quoted = name.replacingOccurrences(of: "\"", with: "\"\"")
        var lines: [String] = []
        for try await line in try await connection.query(
            PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE \"\(quoted)\"(\(arguments))"), logger: logger
        ).decode(String.self) {
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private static func onServer(
        _ server: PostgresURL, _ body: (PostgresConnection, Logger) async throws -> Void
    ) async throws {
        let logger = TestServer.quietLogger(label: "postgres-test-database")
        let connection = try await PostgresConnection.connect(
            configuration: try server.connectionConfiguration(), id: 0, logger: logger)
        do {
            try await body(connection, logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
