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

    /// Adds the writes of one plan to its statement, its live events last.
    private static func add(_ plan: WritePlan, now: Date, to statement: inout PlanStatement) throws {
        let nowMillis = StoredValues.millis(now)
        var frames: [String] = []
        var recipients: [String] = []
        for write in plan.writes {
            if case .publish(let event, let userIds) = write {
                // Encoded here, before the statement, so no connection is held while JSON is written.
                guard let frame = LiveEventFrame.encode(event) else { continue }
                frames.append(frame)
                recipients.append(Set(userIds).sorted().joined(separator: ","))
            } else {
                try add(write, at: nowMillis, to: &statement)
            }
        }
        statement.addEvents(frames: frames, recipients: recipients)
    }

    /// Adds one write of a plan to its statement (its publishes are collected by
    /// ``applyTogether(_:on:)`` and written last, with ``PlanStatement/addEvents(frames:recipients:)``).
    private static func add(_ write: StoredWrite, at nowMillis: Int64, to statement: inout PlanStatement) throws {
        switch write {
        case .refuseIfBlocked(let first, let second):
            // In the statement itself: no round trip, and no block can commit between the check
            // and the writes it guards.
            let (a, b) = (statement.bind(first), statement.bind(second))
            statement.addGuard(
                """
                NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = \(a) AND blocked_id = \(b))
                    OR (blocker_id = \(b) AND blocked_id = \(a)))
                AND NOT EXISTS (SELECT 1 FROM users WHERE id = \(b) AND deleted_at IS NOT NULL)
                """)
        case .claim(let claim):
            // The unique key decides a race between replicas: the second insert waits for the
            // first transaction, then inserts nothing, and nothing after it is written.
            statement.addClaim(
                """
                INSERT INTO idempotency_keys (user_id, idem_key, message_id, created_at)
                SELECT \(statement.bind(claim.owner)), \(statement.bind(claim.key)), \(statement.bind(claim.resultId)), \
                \(statement.bind(nowMillis))
                WHERE \(statement.gate)
                ON CONFLICT (user_id, idem_key) DO NOTHING
                RETURNING message_id
                """)
        case .appendMessage(let message):
            // The message, then its conversation's activity and its sender's read marker, which read
            // the message's row (so they run after it, and only when it was written).
            let id = statement.bind(message.id)
            let conversation = statement.bind(message.conversationId)
            let sender = statement.bind(message.senderId)
            let at = statement.bind(StoredValues.millis(message.createdAt))
            let inserted = statement.addWrite(
                """
                INSERT INTO messages (id, conversation_id, sender_id, body, created_at, kind, offer_id, attachments)
                SELECT \(id), \(conversation), \(sender), \(statement.bind(message.body)), \(at),
                    \(statement.bind(message.kind.rawValue)), \(statement.bind(message.offerId)),
                    \(statement.bind(PhotoEntry.column(of: message.attachments)))
                WHERE \(statement.gate)
                RETURNING seq
                """)
            statement.addAppendedMessage(inserted, conversation: conversation)
            // Conditional on the stored last message being older: of two sends committing at once,
            // the newer message (by seq) is the conversation's last, whichever commits second.
            statement.addWrite(
                """
                UPDATE conversations SET updated_at = \(at), last_message_id = \(id), last_message_seq = \(inserted).seq
                FROM \(inserted)
                WHERE id = \(conversation) AND last_message_seq < \(inserted).seq
                RETURNING 1
                """)
            statement.addWrite(
                """
                UPDATE conversation_reads SET last_read_seq = \(inserted).seq FROM \(inserted)
                WHERE conversation_id = \(conversation) AND user_id = \(sender) AND last_read_seq < \(inserted).seq
                RETURNING 1
                """)
        case .notify(let userId, let notification):
            statement.addWrite(
                """
                INSERT INTO notifications (id, user_id, type, is_read, conversation_id, message_id, created_at, product_id,
                    report_id)
                SELECT \(statement.bind(notification.id)), \(statement.bind(userId)), \(statement.bind(notification.type)),
                    \(statement.bind(notification.read)), \(statement.bind(notification.conversationId)),
                    \(statement.bind(notification.messageId)), \(statement.bind(StoredValues.millis(notification.createdAt))),
                    \(statement.bind(notification.productId)), \(statement.bind(notification.reportId))
                WHERE \(statement.gate)
                RETURNING 1
                """)
        case .publish:
            break  // written last, by add(_:now:to:)
        case .expectProduct, .expectReportOpen:
            break  // checked under the row lock before the statement, by applyApart
        case .saveProduct(let record):
            let product = record.product
            // Written only with the search vectors of the text it now has.
            let vectors = try PostgresSearchVectors.vectors(title: product.title, description: product.description)
            statement.addWrite(
                """
                UPDATE products SET title = \(statement.bind(product.title)),
                    description = \(statement.bind(product.description)),
                    price_cents = \(statement.bind(Int64(product.priceCents))), currency = \(statement.bind(product.currency)),
                    status = \(statement.bind(product.status.rawValue)), buyer_id = \(statement.bind(record.buyerId)),
                    updated_at = \(statement.bind(StoredValues.millis(product.updatedAt))),
                    version = \(statement.bind(record.version)),
                    search_vector = \(statement.bind(vectors.search))::TSVECTOR,
                    title_vector = \(statement.bind(vectors.title))::TSVECTOR
                WHERE id = \(statement.bind(product.id)) AND \(statement.gate)
                RETURNING 1
                """)
        case .bumpProduct(let id, let version):
            statement.addWrite(
                """
                UPDATE products SET version = \(statement.bind(version))
                WHERE id = \(statement.bind(id)) AND \(statement.gate) RETURNING 1
                """)
        case .saveOffer(let offer):
            statement.addWrite(
                """
                INSERT INTO offers (id, product_id, conversation_id, buyer_id, amount_cents, currency, status, created_at,
                    updated_at)
                SELECT \(statement.bind(offer.id)), \(statement.bind(offer.productId)), \(statement.bind(offer.conversationId)),
                    \(statement.bind(offer.buyerId)), \(statement.bind(Int64(offer.amountCents))), \(statement.bind(offer.currency)),
                    \(statement.bind(offer.status.rawValue)), \(statement.bind(StoredValues.millis(offer.createdAt))),
                    \(statement.bind(StoredValues.millis(offer.updatedAt)))
                WHERE \(statement.gate)
                ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
                RETURNING 1
                """)
        case .saveFavourite(let userId, let productId):
            // The count moves only with a save that is new; the update locks the product's row,
            // so saves at once are counted one after the other.
            let product = statement.bind(productId)
            let saved = statement.addWrite(
                """
                INSERT INTO favourites (user_id, product_id, created_at)
                SELECT \(statement.bind(userId)), \(product), \(statement.bind(nowMillis)) WHERE \(statement.gate)
                ON CONFLICT DO NOTHING RETURNING 1
                """)
            statement.addWrite(
                """
                UPDATE products SET favourite_count = favourite_count + (SELECT count(*) FROM \(saved))
                WHERE id = \(product) AND EXISTS (SELECT 1 FROM \(saved)) RETURNING 1
                """)
        case .removeFavourite(let userId, let productId):
            let product = statement.bind(productId)
            let removed = statement.addWrite(
                """
                DELETE FROM favourites WHERE user_id = \(statement.bind(userId)) AND product_id = \(product)
                AND \(statement.gate) RETURNING 1
                """)
            statement.addWrite(
                """
                UPDATE products SET favourite_count = favourite_count - (SELECT count(*) FROM \(removed))
                WHERE id = \(product) AND EXISTS (SELECT 1 FROM \(removed)) RETURNING 1
                """)
        case .saveReview(let review):
            let subject = statement.bind(review.subjectId)
            let rating = statement.bind(Int64(review.rating))
            let saved = statement.addWrite(
                """
                INSERT INTO reviews (id, product_id, author_id, subject_id, rating, text, created_at)
                SELECT \(statement.bind(review.id)), \(statement.bind(review.productId)), \(statement.bind(review.authorId)),
                    \(subject), \(rating), \(statement.bind(review.text)), \(statement.bind(StoredValues.millis(review.createdAt)))
                WHERE \(statement.gate)
                RETURNING 1
                """)
            statement.addWrite(
                """
                UPDATE users SET rating_sum = rating_sum + \(rating), rating_count = rating_count + 1
                WHERE id = \(subject) AND EXISTS (SELECT 1 FROM \(saved)) RETURNING 1
                """)
        case .deleteProduct(let id):
            // The conversations about it, its saves and its photos first (the foreign keys are
            // checked when the statement ends, with every row as it leaves them).
            let product = statement.bind(id)
            statement.addWrite("DELETE FROM favourites WHERE product_id = \(product) AND \(statement.gate) RETURNING 1")
            statement.addWrite(
                "UPDATE conversations SET product_id = NULL WHERE product_id = \(product) AND \(statement.gate) RETURNING 1"
            )
            statement.addWrite(
                "DELETE FROM product_photos WHERE product_id = \(product) AND \(statement.gate) RETURNING 1")
            statement.addWrite("DELETE FROM products WHERE id = \(product) AND \(statement.gate) RETURNING 1")
        case .saveReport(let stored):
            let report = stored.report
            statement.addWrite(
                """
                INSERT INTO reports (id, reporter_id, subject_type, subject_id, subject_user_id, reason, note, status, action,
                    created_at, resolved_at)
                SELECT \(statement.bind(report.id)), \(statement.bind(stored.reporterId)),
                    \(statement.bind(report.subjectType.rawValue)), \(statement.bind(report.subjectId)),
                    \(statement.bind(stored.subjectUserId)), \(statement.bind(report.reason.rawValue)),
                    \(statement.bind(report.note)), \(statement.bind(report.status.rawValue)),
                    \(statement.bind(report.action?.rawValue)), \(statement.bind(StoredValues.millis(report.createdAt))),
                    \(statement.bind(report.resolvedAt.map(StoredValues.millis)))
                WHERE \(statement.gate)
                ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, action = EXCLUDED.action,
                    resolved_at = EXCLUDED.resolved_at
                RETURNING 1
                """)
        case .recordModeration(let moderation):
            statement.addWrite(
                """
                INSERT INTO moderation_actions (id, report_id, moderator_id, action, subject_type, subject_id, note, created_at)
                SELECT \(statement.bind(moderation.id)), \(statement.bind(moderation.reportId)),
                    \(statement.bind(moderation.record.moderatorId)), \(statement.bind(moderation.record.action.rawValue)),
                    \(statement.bind(moderation.subjectType.rawValue)), \(statement.bind(moderation.subjectId)),
                    \(statement.bind(moderation.record.note)),
                    \(statement.bind(StoredValues.millis(moderation.record.createdAt)))
                WHERE \(statement.gate)
                RETURNING 1
                """)
        case .removeMessage(let id):
            let message = statement.bind(id)
            statement.addOtherHistoryChange("ARRAY(SELECT conversation_id FROM messages WHERE id = \(message))")
            statement.addWrite(
                """
                UPDATE messages SET body = \(statement.bind(Message.removedBody)), removed = TRUE
                WHERE id = \(message) AND \(statement.gate) RETURNING 1
                """)
        case .suspendUser:
            break  // run apart, by applyApart
        case .attachPhotos(let ids, let messageId, _, _):
            // Their rows were locked and checked by applyApart before the statement.
            statement.addWrite(
                """
                UPDATE attachments SET message_id = \(statement.bind(messageId))
                WHERE id = ANY(\(statement.bind(ids))::TEXT[]) AND \(statement.gate) RETURNING 1
                """)
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
