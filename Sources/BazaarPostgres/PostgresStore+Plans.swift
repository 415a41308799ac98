import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Applies the plan in one transaction. Its live events are rows of that transaction
    /// (`bazaar_publish`), notified when it commits: the rows and their events commit together
    /// or not at all, so an acknowledged write always reaches the sockets on every replica, and
    /// a rolled-back one never does. Events are written last, in one statement and one
    /// notification (`bazaar_publish_all`), because it holds the event lock until the commit.
    public func apply(_ plan: WritePlan, now: Date) async throws -> PlanOutcome {
        let nowMillis = StoredValues.millis(now)
        // Encoded before the transaction, so no connection is held while JSON is written.
        var frames: [String] = []
        var recipients: [String] = []
        for case .publish(let event, let userIds) in plan.writes {
            guard let frame = LiveEventFrame.encode(event) else { continue }
            frames.append(frame)
            recipients.append(Set(userIds).sorted().joined(separator: ","))
        }
        do {
            try await database.withTransaction { [frames, recipients] transaction in
                for write in plan.writes {
                    try await Self.write(write, at: nowMillis, in: transaction)
                }
                if !frames.isEmpty {
                    // One statement and one NOTIFY for all of them: every replica reads them in one go.
                    try await transaction.rows("SELECT bazaar_publish_all(\(frames), \(recipients), \(nowMillis))")
                }
            }
        } catch let taken as ClaimTaken {
            // Rolled back; the earlier request's result is read now that its claim is committed.
            guard
                let row = try await database.rows(
                    "SELECT message_id FROM idempotency_keys WHERE user_id = \(taken.claim.owner) AND idem_key = \(taken.claim.key)"
                ).first
            else { throw StoreError.corrupt("a taken idempotency key is missing") }
            return .claimTaken(resultId: try row.decode(String.self))
        }
        return .applied
    }

    /// A claim found taken: thrown to roll the transaction back.
    private struct ClaimTaken: Error {
        let claim: IdempotencyClaim
    }

    /// Runs one write of a plan (publishes are written after the others, by ``apply(_:now:)``).
    private static func write(_ write: StoredWrite, at nowMillis: Int64, in transaction: PostgresTransaction)
        async throws
    {
        switch write {
        case .claim(let claim):
            // The unique key decides a race between replicas: the second insert waits for the
            // first transaction, then inserts nothing.
            let claimed = try await transaction.rows(
                """
                INSERT INTO idempotency_keys (user_id, idem_key, message_id, created_at)
                VALUES (\(claim.owner), \(claim.key), \(claim.resultId), \(nowMillis))
                ON CONFLICT (user_id, idem_key) DO NOTHING
                RETURNING message_id
                """)
            if claimed.isEmpty { throw ClaimTaken(claim: claim) }
        case .appendMessage(let message):
            // One statement: the message, its conversation's activity, and its sender's read marker.
            let at = StoredValues.millis(message.createdAt)
            try await transaction.rows(
                """
                WITH inserted AS (
                    INSERT INTO messages (id, conversation_id, sender_id, body, created_at)
                    VALUES (\(message.id), \(message.conversationId), \(message.senderId), \(message.body), \(at))
                    RETURNING seq
                ), touched AS (
                    UPDATE conversations SET updated_at = \(at), last_message_id = \(message.id)
                    WHERE id = \(message.conversationId)
                )
                UPDATE conversation_reads SET last_read_seq = inserted.seq FROM inserted
                WHERE conversation_id = \(message.conversationId) AND user_id = \(message.senderId)
                    AND last_read_seq < inserted.seq
                """)
        case .notify(let userId, let notification):
            try await transaction.rows(
                """
                INSERT INTO notifications (id, user_id, type, is_read, conversation_id, message_id, created_at)
                VALUES (\(notification.id), \(userId), \(notification.type), \(notification.read),
                    \(notification.conversationId), \(notification.messageId), \(StoredValues.millis(notification.createdAt)))
                """)
        case .publish:
            break  // written last, by apply
        }
    }
}
