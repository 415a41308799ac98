import PostgresNIO

/// One SQL statement built from the writes of one or more plans: each write is a data-modifying
/// CTE, and the statement is its own transaction, so a group of plans costs one round trip and
/// one commit.
///
/// Three rules make one statement behave like the transactions it replaces:
/// - **A plan's claim gates the rest of that plan.** Every write of a plan after its claim inserts
///   or updates only when the claim's `INSERT … ON CONFLICT DO NOTHING` returned its row, so a
///   plan whose key was taken first writes nothing, and the other plans of the group are not
///   affected (the unique key decides a race between replicas, as before).
/// - **Events are written after every other write has run.** PostgreSQL runs the CTEs of one
///   statement in an order of its choosing; the final `SELECT` reads a count from every write
///   before it calls `bazaar_publish_all` (once, for the events of every plan whose claim held),
///   which takes the event lock. So the lock is always the last one a statement takes, and two
///   statements that touch the same rows cannot deadlock on it.
/// - **The plans of one statement touch different rows** (``PlanGroupCommit`` groups them so), as
///   PostgreSQL does not say which of two updates of one row in one statement wins.
///
/// The SQL text holds only the fragments the engine writes and `$n` placeholders: every value is
/// bound.
struct PlanStatement {
    private var ctes: [String] = []
    private var names: [String] = []
    private var binds = PostgresBindings(capacity: 32)
    private var gates: [String] = []
    private var frames: [String] = []
    private var recipients: [String] = []
    /// SQL arrays of the conversations whose messages each plan changes, gated as its events are.
    private var changedConversations: [String] = []
    /// Of those, the arrays of changes other than a message added (a removal).
    private var otherwiseChanged: [String] = []
    /// The inserts of messages, in the order added, each returning the message's `seq`.
    private var appendedMessages: [String] = []
    private var prefix = "p0_"
    /// The condition every later write of the current plan must meet: `TRUE`, or its claim
    /// returned its row.
    private(set) var gate = "TRUE"
    /// Whether the current plan has a claim.
    private var hasClaim = false

    /// Starts the writes of plan number `index` (the first plan needs no call).
    mutating func beginPlan(_ index: Int) {
        if index > 0 { endPlan() }
        prefix = "p\(index)_"
        gate = "TRUE"
        hasClaim = false
    }

    private mutating func endPlan() {
        gates.append(gate)
    }

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

    /// Adds the current plan's claim: an insert that returns its row only when nobody holds the
    /// key (and, written `WHERE` ``gate``, only when the plan's guard holds), and gates every write
    /// of the plan added after it.
    mutating func addClaim(_ insertReturning: String) {
        precondition(!hasClaim, "a plan claims at most one key")
        let name = prefix + "claim"
        append(name, insertReturning)
        hasClaim = true
        gate = "EXISTS (SELECT 1 FROM \(name))"
    }

    /// Adds a condition every later write of the current plan (its claim included) must meet: the
    /// plan writes nothing, and says so in its `claimed` flag, when it does not hold. Comes before
    /// the plan's claim.
    mutating func addGuard(_ condition: String) {
        precondition(!hasClaim, "a plan's guard comes before its claim")
        gate = gate == "TRUE" ? "(\(condition))" : "\(gate) AND (\(condition))"
    }

    /// Adds a write (a statement ending in `RETURNING`); returns its name, for later writes of the
    /// plan to read.
    @discardableResult
    mutating func addWrite(_ statementReturning: String) -> String {
        let name = prefix + "w\(ctes.count)"
        append(name, statementReturning)
        return name
    }

    private mutating func append(_ name: String, _ statement: String) {
        ctes.append("\(name) AS (\(statement))")
        names.append(name)
    }

    /// Adds the current plan's live events: frames and, for each, its recipients joined by commas.
    mutating func addEvents(frames: [String], recipients: [String]) {
        guard !frames.isEmpty else { return }
        let framesParameter = bind(frames)
        let recipientsParameter = bind(recipients)
        // Only a plan whose claim held publishes.
        self.frames.append("CASE WHEN \(gate) THEN \(framesParameter)::TEXT[] ELSE '{}'::TEXT[] END")
        self.recipients.append("CASE WHEN \(gate) THEN \(recipientsParameter)::TEXT[] ELSE '{}'::TEXT[] END")
    }

    /// Adds a message's insert (the write named `insert`, returning its `seq`) to the current
    /// plan, its conversation's placeholder being `conversation`: the statement answers the
    /// message's `seq` (``query(atMillis:origin:)``), and other replicas hear that the
    /// conversation's history changed.
    mutating func addAppendedMessage(_ insert: String, conversation: String) {
        appendedMessages.append(insert)
        changedConversations.append("CASE WHEN \(gate) THEN ARRAY[\(conversation)]::TEXT[] ELSE '{}'::TEXT[] END")
    }

    /// Adds a change to the messages of the conversations `conversations` (an SQL expression of a
    /// `TEXT[]`, read before the plan's writes) other than a message added, in the current plan.
    mutating func addOtherHistoryChange(_ conversations: String) {
        let changed = "CASE WHEN \(gate) THEN \(conversations) ELSE '{}'::TEXT[] END"
        changedConversations.append(changed)
        otherwiseChanged.append(changed)
    }

    /// The statement: the writes, then one row with `claimed` (for each plan in order, whether its
    /// claim, if any, was made), `published` (the last event's sequence number, or `NULL`),
    /// `appended` (each added message's `seq` in the order added, `0` for one not written) and
    /// `changed` (the conversations changed otherwise than by a message added). The events are
    /// written at `atMillis` once every write has run, a `history` event from `origin` first.
    mutating func query(atMillis: Int64, origin: String) -> PostgresQuery {
        endPlan()
        var sql = ctes.isEmpty ? "" : "WITH " + ctes.joined(separator: ",\n") + "\n"
        sql += "SELECT ARRAY[\(gates.joined(separator: ", "))]::BOOLEAN[] AS claimed, "
        if frames.isEmpty && changedConversations.isEmpty {
            sql += "NULL::BIGINT AS published"
        } else {
            let at = bind(atMillis)
            let from = bind(origin)
            // The counts make every write finish before the event lock is taken (see above).
            let written = names.map { "(SELECT count(*) FROM \($0))" }
            let after = written.isEmpty ? "TRUE" : written.joined(separator: " + ") + " >= 0"
            sql += """
                CASE WHEN \(after) THEN bazaar_publish_all(\(Self.concatenated(changedConversations)), \(from), \
                \(Self.concatenated(frames)), \(Self.concatenated(recipients)), \(at)) END AS published
                """
        }
        let seqs = appendedMessages.map { "COALESCE((SELECT seq FROM \($0)), 0)" }
        sql += ", ARRAY[\(seqs.joined(separator: ", "))]::BIGINT[] AS appended"
        sql += ", \(Self.concatenated(otherwiseChanged)) AS changed"
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// `TEXT[]` expressions joined with `||`; the empty array for none.
    private static func concatenated(_ arrays: [String]) -> String {
        arrays.isEmpty ? "'{}'::TEXT[]" : arrays.joined(separator: " || ")
    }
}
