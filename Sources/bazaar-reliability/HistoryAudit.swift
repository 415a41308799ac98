import BazaarAPI

/// The checks of the crash run, over the history read back after the burst: every acknowledged
/// message is stored exactly once (by id and by body), no body is stored twice, unacknowledged
/// messages are stored at most once, and nothing is stored that was never sent.
struct HistoryAudit {
    /// Messages found in all the histories.
    private(set) var found = 0
    /// Acknowledged messages missing from the history, one line each.
    private(set) var lost: [String] = []
    /// Bodies stored more than once, or ids listed more than once, one line each.
    private(set) var duplicates: [String] = []
    /// Acknowledged messages stored with another id, body or conversation than the 201 said.
    private(set) var mismatched: [String] = []
    /// Stored messages the run never sent.
    private(set) var strangers: [String] = []
    /// Unacknowledged messages that were stored anyway (allowed: the answer was lost, not the message).
    private(set) var unacknowledgedStored = 0

    /// Audits `history` (every conversation's messages together) against what was planned and acknowledged.
    init(planned: [PlannedMessage], acknowledged: [String: Message], history: [Message]) {
        found = history.count
        let byBody = Dictionary(grouping: history, by: \.body)
        let idCounts = history.reduce(into: [String: Int]()) { $0[$1.id, default: 0] += 1 }
        for (body, copies) in byBody where copies.count > 1 {
            duplicates.append("body \"\(body)\" stored \(copies.count) times")
        }
        for (id, count) in idCounts where count > 1 {
            duplicates.append("message \(id) listed \(count) times")
        }
        let plannedBodies = Set(planned.map(\.body))
        strangers = history.filter { !plannedBodies.contains($0.body) }.map { "\($0.id) \"\($0.body.prefix(40))\"" }
        for message in planned {
            let copies = byBody[message.body] ?? []
            guard let stored = acknowledged[message.idempotencyKey] else {
                if !copies.isEmpty { unacknowledgedStored += 1 }
                continue
            }
            if copies.isEmpty {
                lost.append("\"\(message.body)\" (acknowledged as \(stored.id))")
            } else if !copies.contains(where: { $0.id == stored.id }) || stored.body != message.body
                || stored.conversationId != message.conversationID
            {
                mismatched.append("\"\(message.body)\" acknowledged as \(stored.id), stored as \(copies.map(\.id))")
            }
        }
    }

    /// One line per broken rule, empty when the history is exactly right.
    var violations: [String] {
        lost.map { "lost: \($0)" } + duplicates.map { "duplicate: \($0)" } + mismatched.map { "mismatch: \($0)" }
            + strangers.map { "never sent: \($0)" }
    }
}
