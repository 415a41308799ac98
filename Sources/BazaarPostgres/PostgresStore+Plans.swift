import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Applies the plan in one transaction: one statement (``PlanStatement``), which it shares
    /// with the plans that arrive while others are being applied (``PlanGroupCommit``), so under
    /// load many sends cost one round trip and one commit. Its live events are rows of that
    /// transaction (`bazaar_publish_all`), notified when it commits: the rows and their events
    /// commit together or not at all, so an acknowledged write always reaches the sockets on
    /// every replica, and a rolled-back one never does.
    ///
    /// A plan that expects a product's version is applied apart, in a transaction of its own:
    /// the product's row is locked and its version compared first, so of two changes decided on
    /// the same version (on one replica or two) the second waits for the first and writes nothing.
    public func apply(_ plan: WritePlan, now: Date) async throws -> PlanOutcome {
        let claimed: Bool
        if plan.expectedProduct != nil || plan.expectedOpenReport != nil
            || plan.writes.contains(where: \.needsOwnTransaction)
        {
            let held: Bool?
            do {
                let changing = plan.historyWrites
                let applied = try await newestMessages.whileWriting(
                    changing.conversations, othersUnknown: changing.othersUnknown
                ) {
                    let applied = try await applyApart(plan, expecting: plan.expectedProduct, now: now)
                    applied.history?.tell(newestMessages, messages: plan.appendedMessages)
                    return applied
                }
                // A suspension's sessions end here at once (other replicas hear of them by the listener).
                activeSessions.forget(applied.revokedSessions)
                held = applied.held
            } catch  where Self.isUniqueViolation(error) {
                // A report's open twin (the only unique key a plan's write may break outside a claim).
                throw StoreError.conflict("report")
            }
            guard let held else { return .stale }
            claimed = held
        } else {
            claimed = try await groupCommit.submit(plan, now: now)
        }
        guard !claimed else { return .applied }
        guard let claim = plan.writes.lazy.compactMap(\.claim).first else {
            // A plan's gate without a claim is its block check alone.
            return plan.refusedIfBlocked == nil ? .applied : .blocked
        }
        // Nothing of this plan was written: its key was taken by an earlier request (whose result
        // is read now that its claim is committed), or its block check refused it.
        guard
            let taken = try await database.rows(
                "SELECT message_id FROM idempotency_keys WHERE user_id = \(claim.owner) AND idem_key = \(claim.key)"
            ).first
        else {
            if plan.refusedIfBlocked != nil { return .blocked }
            throw StoreError.corrupt("a taken idempotency key is missing")
        }
        return .claimTaken(resultId: try taken.decode(String.self))
    }

    /// Applies `plan` in a transaction of its own: `nil` when the expected product's version (its
    /// row locked first) moved on, and nothing is written; else whether the plan's claim (if any)
    /// held.
    ///
    /// Two kinds of write run as statements of their own after the plan's statement, in the same
    /// transaction: a product taken down (the plan's timeline lines, its offers declined, update
    /// the same conversation rows, and one statement cannot change a row twice), and a suspension
    /// (its revoked sessions are announced by the statement that revokes them).
    ///
    /// Also answers the sessions a suspension revoked, and what the statement changed of
    /// conversations' histories, for this replica's memos to learn once the transaction has committed.
    private func applyApart(_ plan: WritePlan, expecting expected: (id: String, version: Int64)?, now: Date)
        async throws -> (held: Bool?, revokedSessions: [String], history: HistoryChanges?)
    {
        try await database.withTransaction { transaction in
            if let expected {
                let rows = try await transaction.rows(
                    "SELECT version FROM products WHERE id = \(expected.id) FOR UPDATE")
                guard let version = try rows.first?.decode(Int64.self), version == expected.version else {
                    return (nil, [], nil)
                }
            }
            if let attached = plan.attachedPhotos {
                let rows = try await transaction.rows(
                    """
                    SELECT id FROM attachments
                    WHERE id = ANY(\(attached.ids)::TEXT[]) AND uploader_id = \(attached.uploaderId)
                      AND conversation_id = \(attached.conversationId) AND message_id IS NULL
                    FOR UPDATE
                    """)
                guard rows.count == Set(attached.ids).count else { return (nil, [], nil) }
            }
            if let reportId = plan.expectedOpenReport {
                // Two moderators resolving one report at once: the second waits here, then finds it resolved.
                let rows = try await transaction.rows("SELECT status FROM reports WHERE id = \(reportId) FOR UPDATE")
                guard try rows.first?.decode(String.self) == ReportStatus.open.rawValue else { return (nil, [], nil) }
            }
            let apart = plan.writes.filter(\.runsApart)
            var statement = PlanStatement()
            try Self.add(WritePlan(plan.writes.filter { !$0.runsApart }), now: now, to: &statement)
            let millis = StoredValues.millis(now)
            guard let row = try await transaction.rows(statement.query(atMillis: millis, origin: replicaId)).first
            else {
                throw StoreError.corrupt("a plan's statement answered no row")
            }
            let answer = try PlanStatementAnswer(row)
            var revoked: [String] = []
            for write in apart {
                if case .suspendUser(let userId) = write {
                    revoked += try await Self.suspend(userId, atMillis: millis, in: transaction)
                } else {
                    var second = PlanStatement()
                    try Self.add(write, at: millis, to: &second)
                    _ = try await transaction.rows(second.query(atMillis: millis, origin: replicaId))
                }
            }
            return (answer.claimed.first ?? true, revoked, answer.history)
        }
    }

    /// Suspends a user inside `transaction`: sign-ins refused, listings hidden, every session
    /// revoked and the revocation announced to every replica when the transaction commits.
    private static func suspend(_ userId: String, atMillis millis: Int64, in transaction: PostgresTransaction)
        async throws -> [String]
    {
        try await transaction.rows(
            "UPDATE users SET suspended_at = COALESCE(suspended_at, \(millis)) WHERE id = \(userId)")
        try await transaction.rows("UPDATE products SET hidden = TRUE WHERE seller_id = \(userId) AND NOT hidden")
        let revoked = try await revokeSessions(of: userId, except: nil, atMillis: millis, in: transaction)
        if !revoked.isEmpty { try await transaction.rows(announceRevocation(of: revoked, at: millis)) }
        return revoked
    }

    /// Applies plans as one statement; answers, for each in order, whether its claim (if any) held.
    /// Once it has committed, `newestMessages` learns what it changed of conversations' histories
    /// (the `history` event it writes, from `origin`, is for the other replicas).
    static func applyTogether(
        _ plans: [(plan: WritePlan, now: Date)], on database: PostgresDatabase, origin: String,
        newestMessages: NewestMessagesMemo
    ) async throws -> [Bool] {
        var statement = PlanStatement()
        for (index, (plan, now)) in plans.enumerated() {
            statement.beginPlan(index)
            try add(plan, now: now, to: &statement)
        }
        let latest = plans.map { StoredValues.millis($0.now) }.max() ?? 0
        let query = statement.query(atMillis: latest, origin: origin)
        let changing = plans.map(\.plan.historyWrites)
        return try await newestMessages.whileWriting(
            changing.flatMap(\.conversations), othersUnknown: changing.contains(where: \.othersUnknown)
        ) {
            let rows: [PostgresRow]
            if let number = PlanShapes.shared.number(for: query.sql, plans: plans.count) {
                rows = try await database.rows(query, preparedAs: number)
            } else {
                rows = try await database.rows(query)
            }
            guard let row = rows.first else {
                throw StoreError.corrupt("a plan's statement answered no row")
            }
            let answer = try PlanStatementAnswer(row)
            answer.history.tell(newestMessages, messages: plans.flatMap(\.plan.appendedMessages))
            return answer.claimed
        }
    }
}

extension WritePlan {
    /// The messages the plan adds, in order.
    var appendedMessages: [Message] {
        writes.compactMap { write in
            if case .appendMessage(let message) = write { message } else { nil }
        }
    }

    /// The conversations whose messages the plan changes, as far as it names them (those it adds
    /// a message to), and whether it changes others it does not name (a removal names its message).
    var historyWrites: (conversations: [String], othersUnknown: Bool) {
        var conversations: [String] = []
        var othersUnknown = false
        for write in writes {
            switch write {
            case .appendMessage(let message): conversations.append(message.conversationId)
            case .removeMessage: othersUnknown = true
            default: break
            }
        }
        return (conversations, othersUnknown)
    }
}

extension StoredWrite {
    /// Whether this write runs as statements of its own after the plan's (see `applyApart`).
    var runsApart: Bool {
        switch self {
        case .deleteProduct, .suspendUser: true
        default: false
        }
    }

    /// Whether a plan with this write is applied in a transaction of its own, never grouped with
    /// others: a suspension, or a report (whose open twin breaks a unique index, which would fail
    /// every plan of a group). A plan expecting a product's version or an open report is applied
    /// apart too, its row locked first (a resolution whose report's twins were all resolved
    /// meanwhile saves no report, and must still find its own resolved), and so is a message
    /// sending chat photos, their rows locked and checked first (two sends of one photo at once:
    /// the second finds it sent).
    var needsOwnTransaction: Bool {
        switch self {
        case .suspendUser, .saveReport, .attachPhotos: true
        default: false
        }
    }

    /// The claim, when this write is one.
    fileprivate var claim: IdempotencyClaim? {
        if case .claim(let claim) = self { return claim }
        return nil
    }
}
