import BazaarAPI
import BazaarStorage
import PostgresNIO

/// The one row a ``PlanStatement`` answers: whether each plan's claim held, and what the statement
/// changed of conversations' histories, for this replica's ``NewestMessagesMemo``.
struct PlanStatementAnswer {
    /// For each plan in order, whether its claim (if any) was made.
    var claimed: [Bool]
    /// What the statement changed of conversations' histories.
    var history: HistoryChanges

    /// Decodes the row of ``PlanStatement/query(atMillis:origin:)``.
    init(_ row: PostgresRow) throws {
        let (claimed, _, appended, changed) = try row.decode(([Bool], Int64?, [Int64], [String]).self)
        self.claimed = claimed
        history = HistoryChanges(appendedSeqs: appended, otherwiseChanged: changed)
    }
}

/// What a committed statement changed of conversations' histories: the `seq` of each message it
/// was asked to add (`0` for one it did not write: its plan's claim or guard failed), and the
/// conversations whose messages it changed otherwise (a removal).
struct HistoryChanges {
    /// Each added message's `seq`, in the order the statement's plans add them.
    var appendedSeqs: [Int64]
    /// Conversations changed otherwise than by a message added.
    var otherwiseChanged: [String]

    /// Tells `memo` of the changes, `messages` being the messages the statement's plans add in
    /// order: drops the pages of conversations changed otherwise, then adds each message written
    /// to the pages of its conversation, so this replica keeps the pages it holds current (its
    /// listener skips the `history` event this replica wrote).
    func tell(_ memo: NewestMessagesMemo, messages: [Message]) {
        if !otherwiseChanged.isEmpty { memo.forget(conversationIds: otherwiseChanged) }
        for (message, seq) in zip(messages, appendedSeqs) where seq > 0 { memo.add(message, at: seq) }
    }
}
