import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// Finds the conversation for the unordered pair and product, or creates it with read markers for both.
    public func openConversation(
        between userId: String, and otherUserId: String, productId: String?, newId: String, now: Date
    ) async throws -> (conversation: Conversation, created: Bool) {
        let (low, high) = userId < otherUserId ? (userId, otherUserId) : (otherUserId, userId)
        let opened: (conversation: Conversation, created: Bool) = try await writer.write { db in
            let productKey = productId ?? ""
            var created = false
            var id = try String.fetchOne(
                db.cachedStatement(
                    sql: "SELECT id FROM conversations WHERE user_low = ? AND user_high = ? AND product_key = ?"),
                arguments: [low, high, productKey])
            if id == nil {
                try Self.mappingConflicts("conversation") {
                    try db.run(
                        sql: """
                            INSERT INTO conversations (id, user_low, user_high, product_id, product_key, last_message_id, created_at, updated_at)
                            VALUES (?, ?, ?, ?, ?, NULL, ?, ?)
                            """,
                        arguments: [
                            newId, low, high, productId, productKey, StoredValues.millis(now), StoredValues.millis(now),
                        ])
                }
                for member in [low, high] {
                    try db.run(
                        sql:
                            "INSERT INTO conversation_reads (conversation_id, user_id, last_read_seq) VALUES (?, ?, 0)",
                        arguments: [newId, member])
                }
                id = newId
                created = true
            }
            guard let id, let conversation = try Self.fetchConversation(db, id: id, viewerId: userId) else {
                throw StoreError.corrupt("conversation vanished")
            }
            return (conversation, created)
        }
        conversationMembersMemo.remember(ConversationMembers(low, high), of: opened.conversation.id)
        return opened
    }

    /// The conversation as the viewer sees it, or `nil` when missing or not theirs.
    public func conversation(id: String, viewerId: String) async throws -> Conversation? {
        try await pool.read { db in try Self.fetchConversation(db, id: id, viewerId: viewerId) }
    }

    /// The viewer's conversations, newest activity first, keyset-paginated on (updated_at, id).
    public func conversations(
        viewerId: String, before position: ConversationPosition?, limit: Int
    ) async throws -> (items: [Conversation], next: ConversationPosition?) {
        try await pool.read { db in
            var sql = "SELECT id, updated_at FROM conversations WHERE (user_low = ? OR user_high = ?)"
            var arguments: StatementArguments = [viewerId, viewerId]
            if let position {
                sql += " AND (updated_at < ? OR (updated_at = ? AND id < ?))"
                arguments += [position.updatedAtMillis, position.updatedAtMillis, position.id]
            }
            sql += " ORDER BY updated_at DESC, id DESC LIMIT ?"
            arguments += [limit + 1]
            let rows = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
            let page = Array(rows.prefix(limit))
            var items: [Conversation] = []
            for row in page {
                let id = try row.decode(String.self, forColumn: "id")
                if let conversation = try Self.fetchConversation(db, id: id, viewerId: viewerId) {
                    items.append(conversation)
                }
            }
            var next: ConversationPosition?
            if rows.count > limit, let last = page.last {
                next = ConversationPosition(
                    updatedAtMillis: try last.decode(Int64.self, forColumn: "updated_at"),
                    id: try last.decode(String.self, forColumn: "id"))
            }
            return (items, next)
        }
    }

    /// Messages newest first; `nil` when the conversation is missing or not the viewer's.
    public func messages(conversationId: String, viewerId: String, before position: Int64?, limit: Int) async throws
        -> Slice<Message>?
    {
        // The newest page is held in memory once read, and kept current by every send.
        if position == nil,
            let held = newestMessages.slice(conversationId: conversationId, limit: limit, viewerId: viewerId)
        {
            return held
        }
        let mark = newestMessages.readMark(for: conversationId)
        let read: (slice: Slice<Message>, positions: [Int64], members: [String])? = try await pool.read { db in
            guard let member = try Self.memberRow(db, conversationId: conversationId, userId: viewerId) else {
                return nil
            }
            var positions: [Int64] = []
            positions.reserveCapacity(limit)
            let slice = try Self.newestFirst(
                db, table: "messages", where: "conversation_id", equals: conversationId, before: position, limit: limit
            ) { row in
                positions.append(try row.decode(Int64.self, forColumn: "seq"))
                return try Self.message(row)
            }
            return (slice, positions, [viewerId, member.otherUserId])
        }
        guard let read else { return nil }
        if position == nil {
            newestMessages.remember(
                read.slice, positions: read.positions, conversationId: conversationId, limit: limit,
                members: read.members,
                readAt: mark)
        }
        return read.slice
    }

    public func conversationMembers(id: String) async throws -> ConversationMembers? {
        if let members = conversationMembersMemo.members(of: id) { return members }
        let members = try await pool.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT user_low, user_high FROM conversations WHERE id = ?"), arguments: [id]
            ).map { row in
                ConversationMembers(
                    try row.decode(String.self, forColumn: "user_low"),
                    try row.decode(String.self, forColumn: "user_high"))
            }
        }
        if let members { conversationMembersMemo.remember(members, of: id) }
        return members
    }

    public func message(id: String) async throws -> Message? {
        try await pool.read { db in try Self.fetchMessage(db, id: id) }
    }

    /// Moves the viewer's read marker up to the message and marks its notifications read.
    public func markRead(conversationId: String, viewerId: String, upTo messageId: String, now: Date) async throws
        -> MarkReadOutcome?
    {
        try await writer.write { db in
            guard let member = try Self.memberRow(db, conversationId: conversationId, userId: viewerId) else {
                return nil
            }
            guard
                let seq = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT seq FROM messages WHERE id = ? AND conversation_id = ?"),
                    arguments: [messageId, conversationId])
            else { return .unknownMessage }
            try db.run(
                sql:
                    "UPDATE conversation_reads SET last_read_seq = ? WHERE conversation_id = ? AND user_id = ? AND last_read_seq < ?",
                arguments: [seq, conversationId, viewerId, seq])
            try db.run(
                sql: """
                    UPDATE notifications SET is_read = 1
                    WHERE user_id = ? AND conversation_id = ?
                      AND message_id IN (SELECT id FROM messages WHERE conversation_id = ? AND seq <= ?)
                    """,
                arguments: [viewerId, conversationId, conversationId, seq])
            return .marked(otherUserId: member.otherUserId)
        }
    }

    // MARK: Helpers

    struct Membership {
        var otherUserId: String
    }

    /// The membership of `userId` in the conversation, or `nil` when missing or not theirs.
    static func memberRow(_ db: Database, conversationId: String, userId: String) throws -> Membership? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT user_low, user_high FROM conversations WHERE id = ? AND (user_low = ? OR user_high = ?)"
                ),
                arguments: [conversationId, userId, userId])
        else { return nil }
        let low = try row.decode(String.self, forColumn: "user_low")
        let high = try row.decode(String.self, forColumn: "user_high")
        return Membership(otherUserId: low == userId ? high : low)
    }

    /// Assembles the conversation as `viewerId` sees it: other user, product, last message, unread count.
    static func fetchConversation(_ db: Database, id: String, viewerId: String) throws -> Conversation? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM conversations WHERE id = ? AND (user_low = ? OR user_high = ?)"),
                arguments: [id, viewerId, viewerId])
        else { return nil }
        let low = try row.decode(String.self, forColumn: "user_low")
        let high = try row.decode(String.self, forColumn: "user_high")
        guard let other = try fetchUser(db, id: low == viewerId ? high : low) else {
            throw StoreError.corrupt("conversation member missing")
        }
        let product = try row.decode(String?.self, forColumn: "product_id").flatMap { try fetchProduct(db, id: $0) }
        let lastMessage = try row.decode(String?.self, forColumn: "last_message_id").flatMap {
            try fetchMessage(db, id: $0)
        }
        let lastRead =
            try Int64.fetchOne(
                db.cachedStatement(
                    sql: "SELECT last_read_seq FROM conversation_reads WHERE conversation_id = ? AND user_id = ?"),
                arguments: [id, viewerId]) ?? 0
        let unread =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: "SELECT COUNT(*) FROM messages WHERE conversation_id = ? AND sender_id <> ? AND seq > ?"),
                arguments: [id, viewerId, lastRead]) ?? 0
        return Conversation(
            id: id, otherUser: other.user, product: product, lastMessage: lastMessage, unreadCount: unread,
            updatedAt: StoredValues.date(try row.decode(Int64.self, forColumn: "updated_at")),
            blocked: try isBlocked(db, low, high))
    }
}
