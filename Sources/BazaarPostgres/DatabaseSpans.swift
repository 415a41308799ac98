import BazaarStorage
import Tracing

/// The spans a replica's database work shows in a trace: one client span per statement (named by
/// its first keyword, `SELECT`, `INSERT`, `WITH`…, with the statement text, which holds no
/// values: they travel as bind parameters) and one per transaction around its statements.
///
/// postgres-nio opens no spans of its own, so ``PostgresDatabase`` asks for these around every
/// query it runs; with no tracer (tracing off, the default) it asks for nothing and the query
/// path is unchanged.
struct DatabaseSpans: Sendable {
    /// Where spans are made.
    let tracer: any Tracer
    /// The attributes every span of this database carries (system, database name, server).
    let common: SpanAttributes

    /// Spans for the database at `url`.
    init(tracer: any Tracer, url: PostgresURL) {
        self.tracer = tracer
        var common = SpanAttributes()
        common["db.system.name"] = "postgresql"
        common["db.namespace"] = url.database
        common["server.address"] = url.host
        common["server.port"] = url.port
        self.common = common
    }

    /// Runs `body` inside a span for the statement `sql`; an error it throws is recorded on the span.
    func statement<Result>(_ sql: String, _ body: () async throws -> Result) async throws -> Result {
        try await tracer.withSpan(Self.operationName(sql), ofKind: .client) { span in
            span.attributes = common
            span.attributes["db.query.text"] = sql
            return try await body()
        }
    }

    /// Runs `body` inside a span for one transaction, its statements' spans within it.
    func transaction<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await tracer.withSpan("transaction", ofKind: .client) { span in
            span.attributes = common
            return try await body()
        }
    }

    /// The first keyword of `sql`, upper-cased: a span name of low cardinality.
    static func operationName(_ sql: String) -> String {
        let keyword = sql.drop(while: { $0.isWhitespace || $0 == "(" }).prefix(while: { $0.isLetter })
        return keyword.isEmpty ? "query" : keyword.uppercased()
    }
}
