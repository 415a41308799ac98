/// What came back for one malformed-input case.
struct CaseOutcome: Sendable {
    /// The statuses of the responses received, in order.
    var statuses: [Int] = []
    /// The last response's JSON error code, if any.
    var errorCode: String?
    /// Whether the server closed the connection.
    var closed = false
    /// Whether the server neither answered completely nor closed before the timeout.
    var silent = false
    /// Anything else worth printing (a WebSocket close code, slow-loris figures).
    var note: String?
    /// A case-specific check that failed, if any.
    var failure: String?

    /// `400 malformed_body, closed` / `200 then 400, closed` / `closed, no answer`.
    var summary: String {
        var parts: [String] = []
        if statuses.isEmpty, !closed, !silent, let note {
            // A case that made no single request (slow-loris) describes itself.
            return note
        }
        if statuses.isEmpty {
            parts.append(closed ? "closed, no answer" : silent ? "no answer, not closed (timeout)" : "no answer")
        } else {
            let first = Self.runs(of: statuses).joined(separator: " then ")
            parts.append(errorCode.map { "\(first) \($0)" } ?? first)
            if closed { parts.append("closed") }
        }
        if let note { parts.append(note) }
        return parts.joined(separator: ", ")
    }

    /// Statuses with repeats folded: `[200, 200, 200, 400]` → `["200 ×3", "400"]`.
    static func runs(of statuses: [Int]) -> [String] {
        var runs: [(status: Int, count: Int)] = []
        for status in statuses {
            if let last = runs.last, last.status == status {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((status, 1))
            }
        }
        return runs.map { $0.count == 1 ? "\($0.status)" : "\($0.status) ×\($0.count)" }
    }
}
