import BazaarAPI
import PostgresNIO

/// The statements every authenticated request or every live event runs, prepared once per
/// connection (postgres-nio names them after their type and prepares each on first use), so
/// PostgreSQL parses and plans them once instead of on every call. Counted with
/// `pg_stat_statements` (`Benchmarks/pg-statements`), planning was most of their cost: 0.08 ms of
/// 0.10 for the session check, 0.05 of 0.10 for the listener's read.
///
/// A pooler in front of PostgreSQL must keep protocol-level prepared statements per server
/// connection (PgBouncer 1.21 or later does, in every pool mode).
enum PreparedStatements {
    /// Whether a session exists and is not revoked: one row when it is active.
    struct ActiveSession: PostgresPreparedStatement {
        static let sql = "SELECT 1 FROM sessions WHERE id = $1 AND revoked_at IS NULL"
        typealias Row = Int32

        var sessionId: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(sessionId)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int32 {
            try row.decode(Int32.self)
        }
    }

    /// A page of a conversation's messages, newest first, before a position (`Int64.max` for the
    /// newest): the history page every chat screen opens with. `seq < $2` rather than
    /// `$2 IS NULL OR …`, so the generic plan PostgreSQL keeps for it still ranges over the index.
    struct MessagesPage: PostgresPreparedStatement {
        static let sql = """
            SELECT \(PostgresStore.messageColumns) FROM messages
            WHERE conversation_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3
            """
        typealias Row = (seq: Int64, message: Message)

        var conversationId: String
        var before: Int64
        var limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(conversationId)
            bindings.append(before)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try PostgresStore.sequencedMessage(row)
        }
    }

    /// The live events after a sequence number, oldest first, at most 500. Run on the event
    /// listener's connection, which plans it with its value each time
    /// (``PostgresEventListener/prepareSession(_:logger:)``): a generic plan made while the table
    /// was small scans all of it.
    struct LiveEventsAfter: PostgresPreparedStatement {
        static let sql = "SELECT seq, kind, user_ids, frame FROM live_events WHERE seq > $1 ORDER BY seq LIMIT 500"
        typealias Row = (seq: Int64, kind: String, userIds: [String], frame: String)

        /// The largest number of rows one read answers.
        static let limit = 500

        var after: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(after)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (seq, kind, userIds, frame) = try row.decode((Int64, String, [String], String).self)
            return (seq, kind, userIds, frame)
        }
    }
}
