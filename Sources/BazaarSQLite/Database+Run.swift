import BazaarStorage
import GRDB

extension Database {
    /// Executes one statement that is compiled once per connection and then reused.
    ///
    /// `execute(sql:)` compiles its SQL on every call, and compiling is not cheap: SQLite parses
    /// and plans it and GRDB's authorizer is called for every column it reads (7% of the server's
    /// CPU under the load run's mix). The store's SQL is a fixed set of statements, so caching them
    /// keeps the cache small; SQL built from a request's text must not come here.
    func run(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
