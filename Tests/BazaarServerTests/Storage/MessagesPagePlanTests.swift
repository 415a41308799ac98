import Foundation
import Logging
import PostgresNIO
import TestSupport
import Testing

@testable import BazaarPostgres

/// A history page's generic plan is the walk of the conversation's index, even one made while
/// `messages` was empty: so the pool's connections can keep PostgreSQL's default plan cache mode
/// (which may settle on the generic plan from a statement's sixth run) for it.
///
/// The event listener's read fell into that trap (``ListenerReadPlanTests``): its generic plan,
/// made while its table was nearly empty, scanned all of it. A page asks for one conversation's
/// messages below a `seq`, newest first, which the `(conversation_id, seq)` index answers in
/// order whatever the table's size, so the planner picks it with no statistics at all.
@Suite(
    "PostgreSQL history page plan",
    .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct MessagesPagePlanTests {
    @Test func theGenericPlanOfAHistoryPageMadeOnAnEmptyTableWalksTheConversationsIndex() async throws {
        try await PostgresTestDatabase.with { url in
            let logger = TestServer.quietLogger(label: "messages-plan")
            _ = try await PostgresMigrations.migrate(url: url, logger: logger)
            let connection = try await PostgresConnection.connect(
                configuration: try url.connectionConfiguration(), id: 0, logger: logger)
            do {
                // No autovacuum ANALYZE may replan the statement behind the test's back.
                try await connection.query("ALTER TABLE messages SET (autovacuum_enabled = false)", logger: logger)
                try await connection.query(
                    """
                    INSERT INTO users (id, username, display_name, password_hash, created_at)
                    VALUES ('ada', 'ada', 'Ada', 'x', 0), ('bob', 'bob', 'Bob', 'x', 0)
                    """, logger: logger)
                try await connection.query(
                    """
                    INSERT INTO conversations (id, user_low, user_high, product_key, created_at, updated_at)
                    SELECT 'c' || n, 'ada', 'bob', 'p' || n, 0, 0 FROM generate_series(1, 200) AS n
                    """, logger: logger)
                // The plan PostgreSQL may settle on, made and kept while the table is empty.
                try await connection.query("SET plan_cache_mode = force_generic_plan", logger: logger)
                for try await _ in try await connection.execute(
                    PreparedStatements.MessagesPage(conversationId: "c1", before: .max, limit: 51), logger: logger)
                {}
                try await connection.query(
                    """
                    INSERT INTO messages (id, conversation_id, sender_id, body, created_at)
                    SELECT 'm' || n, 'c' || (n % 200 + 1), 'ada', repeat('x', 80), n
                    FROM generate_series(1, 40000) AS n
                    """, logger: logger)
                let name = PreparedStatements.MessagesPage.name.replacingOccurrences(of: "\"", with: "\"\"")
                var plan: [String] = []
                for try await line in try await connection.query(
                    PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE \"\(name)\"('c7', \(Int64.max), 51)"), logger: logger
                ).decode(String.self) {
                    plan.append(line)
                }
                let text = plan.joined(separator: "\n")
                #expect(text.contains("messages_conversation"), "\(text)")
                #expect(!text.contains("Seq Scan"), "\(text)")
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        }
    }
}
