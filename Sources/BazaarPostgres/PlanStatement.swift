import PostgresNIO

/// One SQL statement built from the writes of a plan: each write is a data-modifying CTE, and the
/// statement is its own transaction, so a plan costs one round trip and one commit.
///
/// Two rules make one statement behave like the transaction it replaces:
/// - **The claim gates the rest.** Every write after a claim inserts or updates only when the
///   claim's `INSERT … ON CONFLICT DO NOTHING` returned its row, so a plan whose key was taken
///   first writes nothing (the unique key decides a race between replicas, as before).
/// - **Events are written after every other write has run.** PostgreSQL runs the CTEs of one
///   statement in an order of its choosing; the final `SELECT` reads a count from every write
///   before it calls `bazaar_publish_all`, which takes the event lock. So the lock is always the
///   last one a plan takes, and two plans that touch the same rows cannot deadlock on it.
struct PlanStatement {
    private var ctes: [String] = []
    private var binds = PostgresBindings(capacity: 24)
    /// The condition every later write must meet: `TRUE`, or the claim returned its row.
    private(set) var gate = "TRUE"
    /// Whether the plan has a claim (its outcome is then read from the statement's answer).
    private(set) var hasClaim = false

    /// A placeholder bound to `value`.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// A placeholder bound to `value`, or to `NULL`.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
        if let value { binds.append(value) } else { binds.appendNull() }
        return "$\(binds.count)"
    }

    /// Adds the claim: an insert that returns its row only when nobody holds the key, and gates
    /// every write added after it.
    mutating func addClaim(_ insertReturning: String) {
        precondition(!hasClaim, "a plan claims at most one key")
        ctes.append("claim AS (\(insertReturning))")
        hasClaim = true
        gate = "EXISTS (SELECT 1 FROM claim)"
    }

    /// Adds a write (a statement ending in `RETURNING`); returns its name, for later writes to read.
    @discardableResult
    mutating func addWrite(_ statementReturning: String) -> String {
        let name = "w\(ctes.count)"
        ctes.append("\(name) AS (\(statementReturning))")
        return name
    }

    /// The statement: the writes, then one row with `claimed` (whether the claim, if any, was
    /// made) and `published` (the last event's sequence number, or `NULL`), writing the events
    /// `publish` renders (a call taking the placeholders it binds) once every write has run.
    mutating func query(publish: ((inout PlanStatement) -> String)?) -> PostgresQuery {
        let written = ctes.indices.map { index in
            let name = String(ctes[index].prefix { $0 != " " })
            return "(SELECT count(*) FROM \(name))"
        }
        let call = publish.map { $0(&self) }
        var sql = ctes.isEmpty ? "" : "WITH " + ctes.joined(separator: ",\n") + "\n"
        sql += "SELECT \(gate) AS claimed, "
        if let call {
            // The counts make every write finish before the event lock is taken (see above).
            let after = written.isEmpty ? "" : " AND " + written.joined(separator: " + ") + " >= 0"
            sql += "CASE WHEN \(gate)\(after) THEN \(call) END AS published"
        } else {
            sql += "NULL::BIGINT AS published"
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}
