/// One kind of malformed input: how to send it, and what the server may answer.
struct MalformedCase: Sendable {
    /// What the server must do.
    enum Expectation: Sendable {
        /// Answer with one of these statuses.
        case status(Set<Int>)
        /// Refuse: a 4xx, or close the connection without an answer.
        case rejected
        /// Anything but a 5xx or silence: an answer (2xx or 4xx) or a close.
        case answeredOrClosed
        /// The case judges itself (``CaseOutcome/failure``); only a 5xx fails it besides.
        case judgedByCase
    }

    /// The case's name, printed first on its line.
    let name: String
    /// What the server must do.
    let expectation: Expectation
    /// Sends the input and reports what came back.
    let run: @Sendable (CaseContext) async throws -> CaseOutcome

    /// Why `outcome` breaks the expectation, or `nil` when it meets it. A 5xx always breaks it.
    func violation(in outcome: CaseOutcome) -> String? {
        if let serverError = outcome.statuses.first(where: { $0 >= 500 }) { return "answered \(serverError)" }
        if let failure = outcome.failure { return failure }
        let first = outcome.statuses.first
        switch expectation {
        case .status(let allowed):
            guard let first, allowed.contains(first) else {
                return "expected \(allowed.sorted().map(String.init).joined(separator: " or "))"
            }
        case .rejected:
            if let first, !(400..<500).contains(first) { return "expected a 4xx or a closed connection" }
            if first == nil, !outcome.closed { return "no answer and the connection stayed open" }
        case .answeredOrClosed:
            if first == nil, !outcome.closed { return "no answer and the connection stayed open" }
        case .judgedByCase:
            break
        }
        return nil
    }
}
