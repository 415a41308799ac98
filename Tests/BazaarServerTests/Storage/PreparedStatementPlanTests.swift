import Foundation
import Logging
import PostgresNIO
import TestSupport
import Testing

@testable import BazaarPostgres

/// What PostgreSQL plans for the prepared statements that run most, made while their tables were
/// empty and looked at after the tables have grown: PostgreSQL may keep a statement's generic plan
/// from its sixth run, and a generic plan made on an empty table can scan the whole table later.
@Suite(
    "PostgreSQL plans of prepared statements",
    .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct PreparedStatementPlanTests {
    /// The event listener's read of new events stays a walk of the primary key however much
    /// `live_events` has grown since the read was first prepared on the connection. Its generic
    /// plan, made while the table was nearly empty, scanned all of it, so the listener's
    /// connection plans the read with its value each time.
    @Test func theReadOfNewEventsWalksThePrimaryKeyAfterTheTableHasGrownUnderIt() async throws {
        try await PostgresTestDatabase.withMigratedConnection(autovacuumOffOn: ["live_events"]) { connection, logger in
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
            let plan = try await PostgresTestDatabase.plan(
                ofPrepared: PreparedStatements.LiveEventsAfter.name, arguments: "4990", on: connection, logger: logger)
            #expect(plan.contains("Index Scan using live_events_pkey"), "\(plan)")
            #expect(!plan.contains("Seq Scan"), "\(plan)")
        }
    }

    /// A history page's generic plan is the walk of the conversation's index, even one made while
    /// `messages` was empty, so the pool's connections can keep PostgreSQL's default plan cache
    /// mode for it: a page asks for one conversation's messages below a `seq`, newest first, which
    /// the `(conversation_id, seq)` index answers in order whatever the table's size.
    @Test func theGenericPlanOfAHistoryPageMadeOnAnEmptyTableWalksTheConversationsIndex() async throws {
        try await PostgresTestDatabase.withMigratedConnection(autovacuumOffOn: ["messages"]) { connection, logger in
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
            let plan = try await PostgresTestDatabase.plan(
                ofPrepared: PreparedStatements.MessagesPage.name, arguments: "'c7', \(Int64.max), 51", on: connection,
                logger: logger)
            #expect(plan.contains("messages_conversation"), "\(plan)")
            #expect(!plan.contains("Seq Scan"), "\(plan)")
        }
    }
}
