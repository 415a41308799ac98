import Foundation
import Logging
import PostgresNIO
import TestSupport
import Testing

@testable import BazaarPostgres

/// The event listener's read of new events stays a walk of the primary key however much
/// `live_events` has grown since the read was first prepared on the connection.
@Suite(
    "PostgreSQL event listener's read plan",
    .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct ListenerReadPlanTests {
    @Test func theReadOfNewEventsWalksThePrimaryKeyAfterTheTableHasGrownUnderIt() async throws {
        try await PostgresTestDatabase.with { url in
            let logger = TestServer.quietLogger(label: "listener-plan")
            _ = try await PostgresMigrations.migrate(url: url, logger: logger)
            let connection = try await PostgresConnection.connect(
                configuration: try url.connectionConfiguration(), id: 0, logger: logger)
            do {
                // No autovacuum ANALYZE may replan the statement behind the test's back.
                try await connection.query("ALTER TABLE live_events SET (autovacuum_enabled = false)", logger: logger)
                try await PostgresEventListener.prepareSession(connection, logger: logger)
                // Prepared and run while the table is empty: past the five runs after which
                // PostgreSQL may settle on a generic plan.
                for _ in 0..<8 {
                    for try await _ in try await connection.execute(
                        PreparedStatements.LiveEventsAfter(after: 0), logger: logger)
                    {}
                }
                try await connection.query(
                    """
                    INSERT INTO live_events (kind, user_ids, frame, created_at)
                    SELECT 'live', ARRAY['u'], repeat('x', 200), n FROM generate_series(1, 5000) AS n
                    """, logger: logger)
                let name = PreparedStatements.LiveEventsAfter.name.replacingOccurrences(of: "\"", with: "\"\"")
                var plan: [String] = []
                for try await line in try await connection.query(
                    PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE \"\(name)\"(4990)"), logger: logger
                ).decode(String.self) {
                    plan.append(line)
                }
                let text = plan.joined(separator: "\n")
                #expect(text.contains("Index Scan using live_events_pkey"), "\(text)")
                #expect(!text.contains("Seq Scan"), "\(text)")
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        }
    }
}
