import BazaarAPI
import BazaarStorage
import Foundation
import Logging
import PostgresNIO

/// ``BazaarStore`` on PostgreSQL through postgres-nio's pool, for several stateless replicas
/// sharing one database.
///
/// The semantics match ``SQLiteStore`` also when two replicas act at once: uniqueness is enforced
/// by constraints (an idempotency key is claimed by inserting it, never by reading first), a
/// refresh token is spent under a row lock, and sequence numbers come from identity columns.
/// Every value is a bind parameter. Operations go through ``PostgresDatabase``, so while the
/// database is unreachable they fail fast with ``StoreError/unavailable(_:)``.
public struct PostgresStore: BazaarStore {
    let database: PostgresDatabase
    /// How common search terms are, for planning search scans.
    let termStatistics = PostgresTermStatistics()
    /// The members of conversations seen, so a send's recipient rarely needs a round trip.
    let conversationMembersMemo = ConversationMembersMemo()

    /// Groups the plans that arrive while others are being applied into one statement.
    let groupCommit: PlanGroupCommit
    /// Sessions found active, believed while this replica's event listener vouches for the memo
    /// (``ActiveSessionMemo``): the session check of an authenticated request is then no round trip.
    let activeSessions: ActiveSessionMemo
    /// Each conversation's newest history page, believed while this replica's event listener
    /// vouches for the memo (``NewestMessagesMemo``): an open chat's page is then no round trip.
    let newestMessages: NewestMessagesMemo
    /// This replica's id in the `history` events it writes, so its listener skips its own.
    let replicaId: String

    /// A store on `database`, applying at most `maximumStatementsInFlight` plan statements at once
    /// (each of up to 32 plans), so the plans leave room in the pool for reads.
    ///
    /// - Parameters:
    ///   - activeSessions: the memo this replica's ``PostgresEventListener`` keeps (it forgets
    ///     sessions revoked elsewhere and holds the memo's lease); the default, never trusted,
    ///     asks the database on every check.
    ///   - newestMessages: the same for history pages; the default, never trusted, reads every page.
    ///   - replicaId: the id this replica's listener knows as its own; the default is new.
    init(
        database: PostgresDatabase, maximumStatementsInFlight: Int = 4,
        activeSessions: ActiveSessionMemo = ActiveSessionMemo(leased: true),
        newestMessages: NewestMessagesMemo = NewestMessagesMemo(leased: true),
        replicaId: String = UUID().uuidString
    ) {
        self.database = database
        self.activeSessions = activeSessions
        self.newestMessages = newestMessages
        self.replicaId = replicaId
        groupCommit = PlanGroupCommit(maximumInFlight: maximumStatementsInFlight, maximumPlans: 32) { plans in
            try await Self.applyTogether(plans, on: database, origin: replicaId, newestMessages: newestMessages)
        }
    }

    /// Answers when PostgreSQL answers `SELECT 1`.
    public func checkHealth() async throws {
        _ = try await database.rows("SELECT 1")
    }

    /// The names of the migrations applied so far, oldest first.
    public func appliedMigrations() async throws -> [String] {
        let logger = database.logger
        return try await database.withConnection { connection in
            try await PostgresMigrations.appliedNames(connection, logger: logger)
        }
    }
}

// MARK: Row mapping shared by the extensions

extension PostgresStore {
    static let userColumns = """
        id, username, display_name, bio, password_hash, photo_digest, created_at, rating_sum, rating_count, role,
        suspended_at, deleted_at
        """
    static let productColumns =
        "id, seq, seller_id, title, description, price_cents, currency, created_at, photo_ids, status, updated_at, favourite_count"
    static let messageColumns =
        "id, seq, conversation_id, sender_id, body, created_at, kind, offer_id, removed, attachments"
    static let notificationColumns =
        "id, seq, type, is_read, conversation_id, message_id, created_at, product_id, report_id"

    static func userRecord(_ row: PostgresRow) throws -> UserRecord {
        let cells = row.makeRandomAccess()
        let id = try cells["id"].decode(String.self)
        let digest = try cells["photo_digest"].decode(String?.self)
        let user = User(
            id: id,
            username: try cells["username"].decode(String.self),
            displayName: try cells["display_name"].decode(String.self),
            bio: try cells["bio"].decode(String?.self),
            photoURL: digest.map { StoredValues.photoURL(userId: id, digest: $0) },
            createdAt: StoredValues.date(try cells["created_at"].decode(Int64.self)),
            ratingAverage: User.ratingAverage(
                sum: Int(try cells["rating_sum"].decode(Int64.self)), count: try cells["rating_count"].decode(Int.self)),
            ratingCount: try cells["rating_count"].decode(Int.self))
        return UserRecord.stored(
            user, passwordHash: try cells["password_hash"].decode(String.self),
            role: try StoredValues.decode(cells["role"].decode(String.self), as: "a user's role"),
            suspendedAt: try cells["suspended_at"].decode(Int64?.self).map(StoredValues.date),
            deletedAt: try cells["deleted_at"].decode(Int64?.self).map(StoredValues.date))
    }

    static func product(_ row: PostgresRow) throws -> Product {
        try product(row.makeRandomAccess(), prefix: "")
    }

    /// A product from columns named `prefix + name` (joins prefix them to tell tables apart).
    static func product(_ cells: PostgresRandomAccessRow, prefix: String) throws -> Product {
        let id = try cells[prefix + "id"].decode(String.self)
        let createdAt = StoredValues.date(try cells[prefix + "created_at"].decode(Int64.self))
        return Product(
            id: id,
            sellerId: try cells[prefix + "seller_id"].decode(String.self),
            title: try cells[prefix + "title"].decode(String.self),
            description: try cells[prefix + "description"].decode(String.self),
            priceCents: try cells[prefix + "price_cents"].decode(Int.self),
            currency: try cells[prefix + "currency"].decode(String.self),
            createdAt: createdAt,
            photos: ProductPhotoOrder(column: try cells[prefix + "photo_ids"].decode(String.self)).photos(
                productId: id),
            status: try StoredValues.decode(try cells[prefix + "status"].decode(String.self), as: "a product's status"),
            updatedAt: try cells[prefix + "updated_at"].decode(Int64?.self).map(StoredValues.date) ?? createdAt,
            favouriteCount: try cells[prefix + "favourite_count"].decode(Int.self))
    }

    /// A message from a row of ``messageColumns``, decoded by position (no lookup by name per cell).
    static func message(_ row: PostgresRow) throws -> Message {
        try sequencedMessage(row).message
    }

    /// A message and its position from a row of ``messageColumns``.
    static func sequencedMessage(_ row: PostgresRow) throws -> (seq: Int64, message: Message) {
        // Column by column (``ColumnReader``): a history page decodes fifty of these.
        var columns = ColumnReader(row)
        let id = try columns.next(String.self)
        let seq = try columns.next(Int64.self)
        let conversationId = try columns.next(String.self)
        let senderId = try columns.next(String.self)
        let body = try columns.next(String.self)
        let createdAt = try columns.next(Int64.self)
        let kind = try columns.next(String.self)
        let offerId = try columns.next(String?.self)
        let removed = try columns.next(Bool.self)
        let attachments = try columns.next(String.self)
        let message = Message(
            id: id, conversationId: conversationId, senderId: senderId, body: body,
            createdAt: StoredValues.date(createdAt), kind: try StoredValues.decode(kind, as: "a message's kind"),
            offerId: offerId, removed: removed,
            // A removed message shows none of its photos.
            attachments: removed ? [] : PhotoEntry.attachments(column: attachments, conversationId: conversationId))
        return (seq, message)
    }

    /// A message from columns named `prefix + name`.
    static func message(_ cells: PostgresRandomAccessRow, prefix: String) throws -> Message {
        let conversationId = try cells[prefix + "conversation_id"].decode(String.self)
        let removed = try cells[prefix + "removed"].decode(Bool.self)
        return Message(
            id: try cells[prefix + "id"].decode(String.self),
            conversationId: conversationId,
            senderId: try cells[prefix + "sender_id"].decode(String.self),
            body: try cells[prefix + "body"].decode(String.self),
            createdAt: StoredValues.date(try cells[prefix + "created_at"].decode(Int64.self)),
            kind: try StoredValues.decode(try cells[prefix + "kind"].decode(String.self), as: "a message's kind"),
            offerId: try cells[prefix + "offer_id"].decode(String?.self),
            removed: removed,
            attachments: removed
                ? []
                : PhotoEntry.attachments(
                    column: try cells[prefix + "attachments"].decode(String.self), conversationId: conversationId))
    }

    static func notification(_ row: PostgresRow) throws -> BazaarAPI.Notification {
        let cells = row.makeRandomAccess()
        return BazaarAPI.Notification(
            id: try cells["id"].decode(String.self),
            type: try cells["type"].decode(String.self),
            read: try cells["is_read"].decode(Bool.self),
            createdAt: StoredValues.date(try cells["created_at"].decode(Int64.self)),
            conversationId: try cells["conversation_id"].decode(String?.self),
            messageId: try cells["message_id"].decode(String?.self),
            productId: try cells["product_id"].decode(String?.self),
            reportId: try cells["report_id"].decode(String?.self))
    }

    /// A page from rows fetched with `LIMIT limit + 1`: the first `limit`, and the last one's
    /// `seq` when more follow.
    static func slice<Item: Sendable>(_ rows: [PostgresRow], limit: Int, map: (PostgresRow) throws -> Item) throws
        -> Slice<Item>
    {
        try Slice(fetched: rows, limit: limit, item: map) { row in
            try row.makeRandomAccess()["seq"].decode(Int64.self)
        }
    }

    /// Whether `error` is a uniqueness violation (SQLSTATE 23505).
    static func isUniqueViolation(_ error: any Error) -> Bool {
        PostgresDatabase.sqlState(error) == "23505"
    }
}
