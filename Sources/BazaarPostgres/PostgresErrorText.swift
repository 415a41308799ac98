import PostgresNIO

/// What went wrong with PostgreSQL, in one line an operator can act on.
///
/// postgres-nio describes every `PSQLError` with the same sentence on purpose ("Generic
/// description to prevent accidental leakage of sensitive data"), since its full reflection can
/// hold a statement and its values. That left a start-up failure or a listener's warning saying
/// nothing of why. This reads only the fields that say why: the error's code, the message and
/// SQLSTATE the server sent, and the socket's own error.
package enum PostgresErrorText {
    /// `error` in one line: `the server said: password authentication failed for user "bazaar"
    /// (SQLSTATE 28P01)`, `connectionError: connection refused …`, or any other error's own
    /// description. The server's message can quote a value from a statement (an invalid input's
    /// text): this is for the operator's log and console, never for an answer to a client.
    package static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] {
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return "the server said: \(message)\(state)"
        }
        guard let underlying = error.underlying else { return "\(error.code)" }
        return "\(error.code): \(describe(underlying))"
    }
}
