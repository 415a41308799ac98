import BazaarStorage
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import ServiceLifecycle
import Tracing
import _ConnectionPoolModule

/// The connection pool of one replica and the rules every query goes through: a deadline, fast
/// failure while the database is unreachable, and connection errors turned into
/// ``StoreError/unavailable(_:)`` (which the HTTP layer answers 503 with `Retry-After`).
package final class PostgresDatabase: Sendable {
    /// The pool.
    package let client: PostgresClient
    /// The URL it connects to.
    package let url: PostgresURL
    /// Reachability as last seen.
    package let availability: DatabaseAvailability
    /// The longest a store operation may take, waiting for a connection included.
    package let operationTimeout: Duration
    /// Where query errors are logged.
    package let logger: Logger
    /// The spans of its statements and transactions; `nil` (tracing off) for none.
    let spans: DatabaseSpans?
    /// Runs the pool. The pool needs a running task before the first query (migrations run at
    /// start, before the service group), so it gets one here; ``close()`` ends it, and the
    /// ``PostgresDatabaseService`` in the server's service group calls that at shutdown.
    private let runTask: Task<Void, Never>

    /// Opens the pool (connections are made on demand) and starts running it; with a `tracer`,
    /// every statement and transaction is a span (see ``DatabaseSpans``).
    package init(
        url: PostgresURL, maximumConnections: Int, operationTimeout: Duration, logger: Logger,
        tracer: (any Tracer)? = nil
    ) {
        var configuration = url.clientConfiguration()
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = operationTimeout
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.url = url
        self.availability = DatabaseAvailability()
        self.operationTimeout = operationTimeout
        self.logger = logger
        self.spans = tracer.map { DatabaseSpans(tracer: $0, url: url) }
        runTask = Task { await client.run() }
    }

    /// Closes the pool: waits (a few seconds at most) for leased connections, then closes every
    /// connection. An operation abandoned at its deadline may still hold one; the bounded wait
    /// keeps it from stopping the process from exiting.
    package func close() async {
        runTask.cancel()
        let runTask = self.runTask
        do {
            try await Deadline.run(.seconds(5), onTimeout: { StoreError.unavailable("the pool did not close") }) {
                await runTask.value
            }
        } catch {
            logger.warning("the PostgreSQL pool did not close within 5 seconds")
        }
    }

    /// Runs `body` with a pooled connection, within the deadline, failing fast while the
    /// database is known to be down.
    package func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await guarded { client in try await client.withConnection { try await body($0) } }
    }

    /// Runs `body` in a transaction (committed when it returns, rolled back when it throws),
    /// under the same rules as ``withConnection(_:)``.
    package func withTransaction<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresTransaction) async throws -> Result
    ) async throws -> Result {
        let logger = self.logger
        let spans = self.spans
        return try await guarded { client in
            do {
                guard let spans else {
                    return try await client.withTransaction(logger: logger) { connection in
                        try await body(PostgresTransaction(connection: connection, logger: logger, spans: nil))
                    }
                }
                return try await spans.transaction {
                    try await client.withTransaction(logger: logger) { connection in
                        try await body(PostgresTransaction(connection: connection, logger: logger, spans: spans))
                    }
                }
            } catch let error as PostgresTransactionError {
                // The error that made the transaction fail, not postgres-nio's wrapper, so a lost
                // connection is recognised as one and the store's own errors keep their meaning.
                throw error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error
            }
        }
    }

    /// Runs one query and returns its rows.
    @discardableResult
    package func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let logger = self.logger
        guard let spans else {
            return try await guarded { client in try await client.query(query, logger: logger).collect() }
        }
        return try await spans.statement(query.sql) {
            try await guarded { client in try await client.query(query, logger: logger).collect() }
        }
    }

    /// Runs a prepared statement (prepared on a connection the first time it runs there) and
    /// returns its decoded rows, under the same rules as ``rows(_:)``.
    package func execute<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row]
    where Statement.Row: Sendable {
        let logger = self.logger
        let run: @Sendable (PostgresClient) async throws -> [Statement.Row] = { client in
            var rows: [Statement.Row] = []
            for try await row in try await client.execute(statement, logger: logger) { rows.append(row) }
            return rows
        }
        guard let spans else { return try await guarded(run) }
        return try await spans.statement(Statement.sql) { try await guarded(run) }
    }

    /// Runs `query` as the statement kept prepared under `number` in ``PlanShapes/shared`` (whose
    /// text must be `query`'s) and returns its rows, under the same rules as ``rows(_:)``.
    func rows(_ query: PostgresQuery, preparedAs number: Int) async throws -> [PostgresRow] {
        func run<Number: ShapeNumber>(_: Number.Type) async throws -> [PostgresRow] {
            try await execute(PlanShapeStatement<Number>(bindings: query.binds))
        }
        return try await run(PlanShapes.statementType(number))
    }

    /// The deadline, the fast-fail gate and the error translation around one operation.
    private func guarded<Result: Sendable>(
        _ operation: @escaping @Sendable (PostgresClient) async throws -> Result
    ) async throws -> Result {
        if let reason = availability.downReason { throw StoreError.unavailable(reason) }
        let client = self.client
        let timeout = operationTimeout
        do {
            return try await Deadline.run(
                timeout, onTimeout: { StoreError.unavailable("the database did not answer within \(timeout)") }
            ) {
                try await operation(client)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            if let reason = Self.unavailabilityReason(error) {
                availability.markDown(reason)
                logger.warning("database unreachable", metadata: ["reason": "\(reason)"])
                throw StoreError.unavailable(reason)
            }
            throw error
        }
    }

    /// Why `error` means the database cannot be reached, or `nil` for any other error.
    package static func unavailabilityReason(_ error: any Error) -> String? {
        if error is ConnectionPoolError { return "no connection to the database could be made" }
        if let error = error as? PSQLError {
            switch error.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .poolClosed:
                return "the connection to the database failed"
            case .server:
                // Class 08: connection exception; class 57: operator intervention (shutdown, restart).
                let state = error.serverInfo?[.sqlState] ?? ""
                if state.hasPrefix("08") || state.hasPrefix("57") {
                    return "the database is shutting down or restarting"
                }
                return nil
            default:
                return nil
            }
        }
        if error is IOError || error is NIOConnectionError || error is ChannelError {
            return "the database cannot be reached"
        }
        return nil
    }

    /// The SQLSTATE of a server error, or `nil`.
    package static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }
}

/// A connection inside an open transaction, with the logger its queries report to.
package struct PostgresTransaction {
    package let connection: PostgresConnection
    package let logger: Logger
    /// The spans of its statements; `nil` with tracing off.
    let spans: DatabaseSpans?

    /// Runs one statement of the transaction and returns its rows.
    @discardableResult
    package func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        guard let spans else { return try await connection.query(query, logger: logger).collect() }
        return try await spans.statement(query.sql) { try await connection.query(query, logger: logger).collect() }
    }
}

/// Closes the pool when the server shuts down, after the HTTP server has drained (it is placed
/// before the application in the service group, and groups stop in reverse order).
package struct PostgresDatabaseService: Service {
    package let database: PostgresDatabase

    package func run() async throws {
        try? await gracefulShutdown()
        await database.close()
    }
}
