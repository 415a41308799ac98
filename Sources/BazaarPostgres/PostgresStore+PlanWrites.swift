import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

// Each write of a plan as the part of the plan's one statement that makes it (``PlanStatement``):
// the SQL side of ``PostgresStore/apply(_:now:)``, kept apart from how plans are grouped and run.
extension PostgresStore {
    /// Adds the writes of one plan to its statement, its live events last.
    static func add(_ plan: WritePlan, now: Date, to statement: inout PlanStatement) throws {
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
    static func add(_ write: StoredWrite, at nowMillis: Int64, to statement: inout PlanStatement) throws {
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
