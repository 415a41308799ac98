import BazaarStorage
import Logging
import PostgresNIO

/// The versioned schema of ``PostgresStore``: each migration runs once, in order, in its own
/// transaction, recorded in `schema_migrations`.
///
/// Replicas that start at the same moment take a session-level advisory lock first, so one
/// applies what is missing while the others wait and then find nothing left to do. The tables
/// mirror ``SQLiteStore``'s (times are BIGINT milliseconds, `seq` columns order lists) with
/// PostgreSQL's own tools where they matter between replicas: identity columns instead of
/// `MAX(seq) + 1`, a deferred foreign key so an idempotency key can be claimed before its message
/// exists, and the live-event log with the function that appends to it and notifies.
package enum PostgresMigrations {
    /// One step of the schema.
    package struct Migration: Sendable {
        /// A stable name, recorded once applied.
        let name: String
        /// The statements, run in order in one transaction.
        let statements: [String]
        /// Work SQL alone cannot do (such as filling a new column with values computed in
        /// Swift), run after the statements in the same transaction.
        var backfill: (@Sendable (PostgresConnection, Logger) async throws -> Void)? = nil
    }

    /// The advisory-lock key migrations hold ("bazaar" in ASCII).
    package static let lockKey: Int64 = 0x62_61_7A_61_61_72

    /// The channel that carries "something new in `live_events`" to every replica.
    package static let eventChannel = "bazaar_events"

    /// Applies what is missing, holding the advisory lock on a connection of its own; returns
    /// the names of every applied migration, oldest first.
    @discardableResult
    package static func migrate(url: PostgresURL, logger: Logger) async throws -> [String] {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: try url.connectionConfiguration(), id: 0, logger: logger)
        } catch {
            throw ConfigurationError("cannot reach PostgreSQL at \(url): \(PostgresErrorText.describe(error))")
        }
        do {
            try await connection.query("SELECT pg_advisory_lock(\(lockKey))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                logger: logger)
            var applied = try await appliedNames(connection, logger: logger)
            for migration in all where !applied.contains(migration.name) {
                try await connection.withTransaction(logger: logger) { transaction in
                    for statement in migration.statements {
                        try await transaction.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await migration.backfill?(transaction, logger)
                    try await transaction.query(
                        "INSERT INTO schema_migrations (name) VALUES (\(migration.name))", logger: logger)
                }
                logger.notice("applied migration", metadata: ["migration": "\(migration.name)"])
                applied.append(migration.name)
            }
            try await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
            try await connection.close()
            return applied
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The names recorded in `schema_migrations`, in the order they were applied.
    package static func appliedNames(_ connection: PostgresConnection, logger: Logger) async throws -> [String] {
        var names: [String] = []
        let rows = try await connection.query(
            "SELECT name FROM schema_migrations ORDER BY applied_at, name", logger: logger)
        for try await name in rows.decode(String.self) { names.append(name) }
        return names
    }
}
