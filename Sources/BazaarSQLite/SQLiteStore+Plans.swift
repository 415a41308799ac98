import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// Applies the plan in one savepoint of the shared group-commit transaction; its live events
    /// are published once that transaction has committed (this process is the database's only
    /// reader, so nothing can see the rows before the events go).
    public func apply(_ plan: WritePlan, now: Date) async throws -> PlanOutcome {
        // Two who are party to no block (nor gone) have nothing between them: the check is a set lookup.
        let plan =
            if let (first, second) = plan.refusedIfBlocked, !blockParties.mayBeParty(first),
                !blockParties.mayBeParty(second)
            {
                plan.withoutBlockCheck()
            } else {
                plan
            }
        let written: Written
        do {
            let nowMillis = StoredValues.millis(now)
            written = try await writer.write { db in try Self.write(plan, at: nowMillis, into: db) }
        } catch let taken as ClaimTaken {
            return .claimTaken(resultId: taken.resultId)
        } catch is ProductMoved {
            return .stale
        }
        switch written {
        case .claimTaken(let resultId):
            return .claimTaken(resultId: resultId)
        case .stale:
            return .stale
        case .blocked:
            return .blocked
        case .applied(let applied):
            // Committed: the pages held of a conversation gain its message before anyone hears of it.
            for (message, seq) in applied.appended { newestMessages.add(message, at: seq) }
            newestMessages.forget(conversationIds: applied.changedConversations)
            for sessionId in applied.revokedSessions { activeSessions.forget(sessionId) }
            if let events {
                if !applied.revokedSessions.isEmpty { await events.sessionsRevoked(applied.revokedSessions) }
                for case .publish(let event, let userIds) in plan.writes { await events.publish(event, to: userIds) }
            }
            return .applied
        }
    }

    /// What a plan that applied changed beyond its rows: what the memos and sockets must learn.
    private struct Applied: Sendable {
        /// The messages appended, with their positions.
        var appended: [(message: Message, seq: Int64)] = []
        /// Conversations one of whose messages changed.
        var changedConversations: [String] = []
        /// Sessions revoked (a suspension).
        var revokedSessions: [String] = []
    }

    /// What running a plan's writes did.
    private enum Written: Sendable {
        /// Every write is made.
        case applied(Applied)
        /// A claim was taken before the plan wrote anything: nothing to roll back, so the job
        /// ends as a read and the writes sharing its transaction are untouched.
        case claimTaken(String)
        /// The expected product had moved on before the plan wrote anything.
        case stale
        /// The two users the plan names blocked one another; nothing was written.
        case blocked
    }

    /// What the plan expected (a product's version, an open report, chat photos to send) moved
    /// on after the plan wrote: thrown to roll its savepoint back.
    private struct ProductMoved: Error {}

    /// A claim found taken after the plan wrote: thrown to roll the plan's savepoint back.
    private struct ClaimTaken: Error {
        let resultId: String
    }

    /// Runs each write of the plan.
    private static func write(_ plan: WritePlan, at nowMillis: Int64, into db: Database) throws -> Written {
        var applied = Applied()
        var claims: [IdempotencyClaim] = []
        var wrote = false
        for write in plan.writes {
            switch write {
            case .refuseIfBlocked(let first, let second):
                // First in its plan, so nothing is written yet; writers are serialised, so no
                // block can commit between this look and the plan's writes.
                if try isClosed(db, first, second) { return .blocked }
            case .claim(let claim):
                // Writers are serialised, so looking before inserting cannot race.
                if let previous = try String.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT message_id FROM idempotency_keys WHERE user_id = ? AND idem_key = ?"),
                    arguments: [claim.owner, claim.key])
                {
                    if wrote { throw ClaimTaken(resultId: previous) }
                    return .claimTaken(previous)
                }
                // Stored after the plan's other writes: the key's row refers to its result, and
                // SQLite checks that reference at once (PostgreSQL's is deferred to the commit).
                claims.append(claim)
            case .appendMessage(let message):
                wrote = true
                applied.appended.append((message, try append(message, into: db)))
            case .notify(let userId, let notification):
                wrote = true
                try db.run(
                    sql: """
                        INSERT INTO notifications (id, seq, user_id, type, is_read, conversation_id, message_id, created_at,
                            product_id, report_id)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        notification.id, try nextSeq(db, table: .notifications), userId, notification.type,
                        notification.read ? 1 : 0, notification.conversationId, notification.messageId,
                        StoredValues.millis(notification.createdAt), notification.productId, notification.reportId,
                    ])
            case .publish:
                break  // after the commit, in apply
            case .expectProduct(let id, let version):
                // Writers are serialised: the version read here is the one the writes below change.
                let current = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT version FROM products WHERE id = ?"), arguments: [id])
                if current != version {
                    if wrote { throw ProductMoved() }
                    return .stale
                }
            case .saveProduct(let record):
                wrote = true
                let product = record.product
                try db.run(
                    sql: """
                        UPDATE products SET title = ?, description = ?, price_cents = ?, currency = ?, status = ?,
                            buyer_id = ?, updated_at = ?, version = ?
                        WHERE id = ?
                        """,
                    arguments: [
                        product.title, product.description, product.priceCents, product.currency,
                        product.status.rawValue, record.buyerId, StoredValues.millis(product.updatedAt), record.version,
                        product.id,
                    ])
            case .bumpProduct(let id, let version):
                wrote = true
                try db.run(sql: "UPDATE products SET version = ? WHERE id = ?", arguments: [version, id])
            case .saveOffer(let offer):
                wrote = true
                try db.run(
                    sql: """
                        INSERT INTO offers (id, seq, product_id, conversation_id, buyer_id, amount_cents, currency, status,
                            created_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at
                        """,
                    arguments: [
                        offer.id, try nextSeq(db, table: .offers), offer.productId, offer.conversationId, offer.buyerId,
                        offer.amountCents, offer.currency, offer.status.rawValue, StoredValues.millis(offer.createdAt),
                        StoredValues.millis(offer.updatedAt),
                    ])
            case .saveFavourite(let userId, let productId):
                wrote = true
                try db.run(
                    sql: """
                        INSERT INTO favourites (user_id, product_id, seq, created_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT DO NOTHING
                        """,
                    arguments: [userId, productId, try nextSeq(db, table: .favourites), nowMillis])
                if db.changesCount > 0 {
                    try db.run(
                        sql: "UPDATE products SET favourite_count = favourite_count + 1 WHERE id = ?",
                        arguments: [productId])
                }
            case .removeFavourite(let userId, let productId):
                wrote = true
                try db.run(
                    sql: "DELETE FROM favourites WHERE user_id = ? AND product_id = ?", arguments: [userId, productId])
                if db.changesCount > 0 {
                    try db.run(
                        sql: "UPDATE products SET favourite_count = favourite_count - 1 WHERE id = ?",
                        arguments: [productId])
                }
            case .saveReview(let review):
                wrote = true
                try db.run(
                    sql: """
                        INSERT INTO reviews (id, seq, product_id, author_id, subject_id, rating, text, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        review.id, try nextSeq(db, table: .reviews), review.productId, review.authorId,
                        review.subjectId,
                        review.rating, review.text, StoredValues.millis(review.createdAt),
                    ])
                try db.run(
                    sql: "UPDATE users SET rating_sum = rating_sum + ?, rating_count = rating_count + 1 WHERE id = ?",
                    arguments: [review.rating, review.subjectId])
            case .deleteProduct(let id):
                wrote = true
                try db.run(sql: "DELETE FROM favourites WHERE product_id = ?", arguments: [id])
                // Conversations about it stay, about no product; then its photos, then the row
                // (the full-text indexes follow by trigger).
                try db.run(sql: "UPDATE conversations SET product_id = NULL WHERE product_id = ?", arguments: [id])
                try db.run(sql: "DELETE FROM product_photos WHERE product_id = ?", arguments: [id])
                try db.run(sql: "DELETE FROM products WHERE id = ?", arguments: [id])
            case .expectReportOpen(let id):
                let status = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT status FROM reports WHERE id = ?"), arguments: [id])
                if status != ReportStatus.open.rawValue {
                    if wrote { throw ProductMoved() }
                    return .stale
                }
            case .saveReport(let stored):
                wrote = true
                try saveReport(stored, into: db)
            case .recordModeration(let moderation):
                wrote = true
                try db.run(
                    sql: """
                        INSERT INTO moderation_actions (id, seq, report_id, moderator_id, action, subject_type, subject_id,
                            note, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        moderation.id, try nextSeq(db, table: .moderationActions), moderation.reportId,
                        moderation.record.moderatorId, moderation.record.action.rawValue,
                        moderation.subjectType.rawValue, moderation.subjectId, moderation.record.note,
                        StoredValues.millis(moderation.record.createdAt),
                    ])
            case .removeMessage(let id):
                wrote = true
                if let conversationId = try String.fetchOne(
                    db.cachedStatement(
                        sql: "UPDATE messages SET body = ?, removed = 1 WHERE id = ? RETURNING conversation_id"),
                    arguments: [Message.removedBody, id])
                {
                    applied.changedConversations.append(conversationId)
                }
            case .attachPhotos(let ids, let messageId, let uploaderId, let conversationId):
                wrote = true
                let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
                try db.run(
                    sql: """
                        UPDATE attachments SET message_id = ?
                        WHERE id IN (\(placeholders)) AND uploader_id = ? AND conversation_id = ? AND message_id IS NULL
                        """,
                    arguments: StatementArguments([messageId] + ids + [uploaderId, conversationId]))
                // Writers are serialised; one that is gone, sent or another's leaves a row unchanged.
                if db.changesCount != ids.count { throw ProductMoved() }
            case .suspendUser(let id):
                wrote = true
                try db.run(
                    sql: "UPDATE users SET suspended_at = COALESCE(suspended_at, ?) WHERE id = ?",
                    arguments: [nowMillis, id])
                try db.run(sql: "UPDATE products SET hidden = 1 WHERE seller_id = ?", arguments: [id])
                applied.revokedSessions += try revokeSessions(of: id, except: nil, at: nowMillis, in: db)
            }
        }
        for claim in claims {
            try db.run(
                sql: "INSERT INTO idempotency_keys (user_id, idem_key, message_id, created_at) VALUES (?, ?, ?, ?)",
                arguments: [claim.owner, claim.key, claim.resultId, nowMillis])
        }
        return .applied(applied)
    }

    /// Inserts a new report, or stores the resolution of one that exists. A second open report of
    /// one subject by one reporter breaks the open reports' unique index: ``StoreError/conflict(_:)``.
    private static func saveReport(_ stored: StoredReport, into db: Database) throws {
        let report = stored.report
        try mappingConflicts("report") {
            try db.run(
                sql: """
                    INSERT INTO reports (id, seq, reporter_id, subject_type, subject_id, subject_user_id, reason, note,
                        status, action, created_at, resolved_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET status = excluded.status, action = excluded.action,
                        resolved_at = excluded.resolved_at
                    """,
                arguments: [
                    report.id, try nextSeq(db, table: .reports), stored.reporterId, report.subjectType.rawValue,
                    report.subjectId, stored.subjectUserId, report.reason.rawValue, report.note, report.status.rawValue,
                    report.action?.rawValue, StoredValues.millis(report.createdAt),
                    report.resolvedAt.map(StoredValues.millis),
                ])
        }
    }

    /// Inserts the message, moves its conversation's activity to it and marks it read by its sender.
    private static func append(_ message: Message, into db: Database) throws -> Int64 {
        let at = StoredValues.millis(message.createdAt)
        let seq = try nextSeq(db, table: .messages)
        try db.run(
            sql: """
                INSERT INTO messages (id, seq, conversation_id, sender_id, body, created_at, kind, offer_id, attachments)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                message.id, seq, message.conversationId, message.senderId, message.body, at, message.kind.rawValue,
                message.offerId, PhotoEntry.column(of: message.attachments),
            ])
        try db.run(
            sql: "UPDATE conversations SET updated_at = ?, last_message_id = ? WHERE id = ?",
            arguments: [at, message.id, message.conversationId])
        try db.run(
            sql: "UPDATE conversation_reads SET last_read_seq = ? WHERE conversation_id = ? AND user_id = ?",
            arguments: [seq, message.conversationId, message.senderId])
        return seq
    }
}
