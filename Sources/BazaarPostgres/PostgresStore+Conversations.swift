import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Finds the conversation for the unordered pair and product, or creates it with read markers
    /// for both. Two replicas opening the same one at once get the same conversation (the unique
    /// constraint decides, `ON CONFLICT` reads the winner).
    public func openConversation(
        between userId: String, and otherUserId: String, productId: String?, newId: String, now: Date
    ) async throws -> (conversation: Conversation, created: Bool) {
        let (low, high) = userId < otherUserId ? (userId, otherUserId) : (otherUserId, userId)
        let productKey = productId ?? ""
        let nowMillis = StoredValues.millis(now)
        let opened: (conversation: Conversation, created: Bool) = try await database.withTransaction { transaction in
            let inserted = try await transaction.rows(
                """
                INSERT INTO conversations (id, user_low, user_high, product_id, product_key, last_message_id, created_at, updated_at)
                VALUES (\(newId), \(low), \(high), \(productId), \(productKey), NULL, \(nowMillis), \(nowMillis))
                ON CONFLICT (user_low, user_high, product_key) DO NOTHING
                RETURNING id
                """)
            let created = !inserted.isEmpty
            if created {
                try await transaction.rows(
                    """
                    INSERT INTO conversation_reads (conversation_id, user_id, last_read_seq)
                    VALUES (\(newId), \(low), 0), (\(newId), \(high), 0)
                    """)
            }
            let views = try await Self.conversationViews(
                transaction.rows, viewerId: userId,
                filter: created ? .id(newId) : .pair(low: low, high: high, productKey: productKey), limit: 1)
            guard let conversation = views.first?.conversation else {
                throw StoreError.corrupt("conversation vanished")
            }
            return (conversation, created)
        }
        conversationMembersMemo.remember(ConversationMembers(low, high), of: opened.conversation.id)
        return opened
    }

    /// The conversation as the viewer sees it, or `nil` when missing or not theirs.
    public func conversation(id: String, viewerId: String) async throws -> Conversation? {
        try await Self.conversationViews(database.rows, viewerId: viewerId, filter: .id(id), limit: 1).first?
            .conversation
    }

    /// The viewer's conversations, newest activity first, keyset-paginated on (updated_at, id),
    /// each with its other user, product, last message and unread count, in one query.
    public func conversations(
        viewerId: String, before position: ConversationPosition?, limit: Int
    ) async throws -> (items: [Conversation], next: ConversationPosition?) {
        let views = try await Self.conversationViews(
            database.rows, viewerId: viewerId, filter: .before(position), limit: limit + 1)
        let page = views.prefix(limit)
        let next =
            views.count > limit
            ? page.last.map { ConversationPosition(updatedAtMillis: $0.updatedAtMillis, id: $0.conversation.id) } : nil
        return (page.map(\.conversation), next)
    }

    /// Messages newest first; `nil` when the conversation is missing or not the viewer's.
    public func messages(conversationId: String, viewerId: String, before position: Int64?, limit: Int) async throws
        -> Slice<Message>?
    {
        // Members never change, so the membership check is usually answered from memory, and the
        // newest page too while the listener vouches for it: no round trip for an open chat's page.
        guard let members = try await conversationMembers(id: conversationId), members.other(than: viewerId) != nil
        else { return nil }
        if position == nil,
            let held = newestMessages.slice(conversationId: conversationId, limit: limit, viewerId: viewerId)
        {
            return held
        }
        let mark = newestMessages.readMark(for: conversationId)
        let rows = try await database.execute(
            PreparedStatements.MessagesPage(
                conversationId: conversationId, before: position ?? .max, limit: Int64(limit) + 1))
        let slice = Slice(fetched: rows, limit: limit, item: \.message, position: \.seq)
        if position == nil {
            newestMessages.remember(
                slice, positions: rows.prefix(limit).map(\.seq), conversationId: conversationId, limit: limit,
                members: [members.first, members.second], readAt: mark)
        }
        return slice
    }

    public func conversationMembers(id: String) async throws -> ConversationMembers? {
        if let members = conversationMembersMemo.members(of: id) { return members }
        let members = try await database.rows("SELECT user_low, user_high FROM conversations WHERE id = \(id)").first
            .map { row in
                let (low, high) = try row.decode((String, String).self)
                return ConversationMembers(low, high)
            }
        if let members { conversationMembersMemo.remember(members, of: id) }
        return members
    }

    public func message(id: String) async throws -> Message? {
        try await database.rows("SELECT \(unescaped: Self.messageColumns) FROM messages WHERE id = \(id)").first.map(
            Self.message)
    }

    /// Moves the viewer's read marker up to the message (never down) and marks its notifications read.
    public func markRead(conversationId: String, viewerId: String, upTo messageId: String, now: Date) async throws
        -> MarkReadOutcome?
    {
        try await database.withTransaction { transaction in
            guard
                let member = try await transaction.rows(
                    """
                    SELECT user_low, user_high FROM conversations
                    WHERE id = \(conversationId) AND (user_low = \(viewerId) OR user_high = \(viewerId))
                    """
                ).first
            else { return nil }
            guard
                let seqRow = try await transaction.rows(
                    "SELECT seq FROM messages WHERE id = \(messageId) AND conversation_id = \(conversationId)"
                ).first
            else { return .unknownMessage }
            let seq = try seqRow.decode(Int64.self)
            try await transaction.rows(
                """
                UPDATE conversation_reads SET last_read_seq = \(seq)
                WHERE conversation_id = \(conversationId) AND user_id = \(viewerId) AND last_read_seq < \(seq)
                """)
            try await transaction.rows(
                """
                UPDATE notifications SET is_read = TRUE
                WHERE user_id = \(viewerId) AND conversation_id = \(conversationId) AND NOT is_read
                  AND message_id IN (SELECT id FROM messages WHERE conversation_id = \(conversationId) AND seq <= \(seq))
                """)
            let (low, high) = try member.decode((String, String).self)
            return .marked(otherUserId: low == viewerId ? high : low)
        }
    }

    // MARK: The conversation view

    /// Which conversations a view query reads.
    enum ConversationFilter {
        /// The one with this id.
        case id(String)
        /// The one of this pair and product.
        case pair(low: String, high: String, productKey: String)
        /// The viewer's, after a list position.
        case before(ConversationPosition?)
    }

    /// A conversation as a viewer sees it, with the activity time its list position is made of.
    struct ConversationView {
        var conversation: Conversation
        var updatedAtMillis: Int64
    }

    /// Conversations as `viewerId` sees them, newest activity first: other user, product, last
    /// message and unread count joined in one query (no query per conversation).
    static func conversationViews(
        _ run: (PostgresQuery) async throws -> [PostgresRow], viewerId: String, filter: ConversationFilter, limit: Int
    ) async throws -> [ConversationView] {
        var id: String?
        var pair: (low: String, high: String, key: String)?
        var position: ConversationPosition?
        switch filter {
        case .id(let value): id = value
        case .pair(let low, let high, let key): pair = (low, high, key)
        case .before(let value): position = value
        }
        let rows = try await run(
            """
            SELECT c.id AS c_id, c.updated_at AS c_updated_at,
                u.id, u.username, u.display_name, u.bio, u.password_hash, u.photo_digest, u.created_at, u.rating_sum,
                u.rating_count, u.role, u.suspended_at, u.deleted_at,
                p.id AS p_id, p.seller_id AS p_seller_id, p.title AS p_title, p.description AS p_description,
                p.price_cents AS p_price_cents, p.currency AS p_currency, p.created_at AS p_created_at,
                p.photo_ids AS p_photo_ids, p.status AS p_status, p.updated_at AS p_updated_at,
                p.favourite_count AS p_favourite_count,
                m.id AS m_id, m.conversation_id AS m_conversation_id, m.sender_id AS m_sender_id, m.body AS m_body,
                m.created_at AS m_created_at, m.kind AS m_kind, m.offer_id AS m_offer_id, m.removed AS m_removed,
                m.attachments AS m_attachments,
                EXISTS (SELECT 1 FROM blocks b
                        WHERE (b.blocker_id = c.user_low AND b.blocked_id = c.user_high)
                           OR (b.blocker_id = c.user_high AND b.blocked_id = c.user_low)) AS blocked,
                (SELECT COUNT(*) FROM messages x
                 WHERE x.conversation_id = c.id AND x.sender_id <> \(viewerId) AND x.seq > COALESCE(r.last_read_seq, 0)) AS unread
            FROM conversations c
            JOIN users u ON u.id = CASE WHEN c.user_low = \(viewerId) THEN c.user_high ELSE c.user_low END
            LEFT JOIN products p ON p.id = c.product_id AND NOT p.hidden
            LEFT JOIN messages m ON m.id = c.last_message_id
            LEFT JOIN conversation_reads r ON r.conversation_id = c.id AND r.user_id = \(viewerId)
            WHERE (c.user_low = \(viewerId) OR c.user_high = \(viewerId))
              AND (\(id)::TEXT IS NULL OR c.id = \(id))
              AND (\(pair?.low)::TEXT IS NULL OR (c.user_low = \(pair?.low) AND c.user_high = \(pair?.high) AND c.product_key = \(pair?.key)))
              AND (\(position?.updatedAtMillis)::BIGINT IS NULL OR c.updated_at < \(position?.updatedAtMillis)
                   OR (c.updated_at = \(position?.updatedAtMillis) AND c.id < \(position?.id)))
            ORDER BY c.updated_at DESC, c.id DESC
            LIMIT \(limit)
            """)
        return try rows.map { row in
            let cells = row.makeRandomAccess()
            let product = try cells["p_id"].decode(String?.self) == nil ? nil : try product(cells, prefix: "p_")
            let lastMessage = try cells["m_id"].decode(String?.self) == nil ? nil : try message(cells, prefix: "m_")
            let updatedAt = try cells["c_updated_at"].decode(Int64.self)
            let conversation = Conversation(
                id: try cells["c_id"].decode(String.self), otherUser: try userRecord(row).user, product: product,
                lastMessage: lastMessage, unreadCount: try cells["unread"].decode(Int.self),
                updatedAt: StoredValues.date(updatedAt), blocked: try cells["blocked"].decode(Bool.self))
            return ConversationView(conversation: conversation, updatedAtMillis: updatedAt)
        }
    }
}
