import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

/// ``BazaarStore`` on a SQLite file through GRDB: WAL mode, `synchronous = FULL`, versioned
/// migrations run when it opens, every statement parameterised. Every write method is one
/// savepoint in a transaction that concurrent writes share (``GroupCommitWriter``): one commit
/// and one `fsync` for all the writes that arrived together.
///
/// The SQL sticks to what PostgreSQL also speaks (no rowids, no `INSERT OR REPLACE`, sequence
/// numbers taken as `MAX(seq) + 1` inside the writing transaction, which PostgreSQL would take
/// from a `SEQUENCE` instead).
public struct SQLiteStore: BazaarStore {
    package let pool: DatabasePool
    /// Where every write goes.
    let writer: GroupCommitWriter
    /// Sessions known active, so the per-request session check rarely reads the database.
    let activeSessions = ActiveSessionMemo()
    /// Each conversation's newest page of messages, so an open chat's history rarely reads the database.
    let newestMessages = NewestMessagesMemo()
    /// The members of conversations seen, so a send's recipient rarely needs a read.
    let conversationMembersMemo = ConversationMembersMemo()
    /// Everyone party to a block, so a send between two who never blocked anyone needs no read.
    let blockParties: BlockPartiesMemo
    /// Where the live events of applied plans go once they commit; `nil` for a store without a
    /// server (tools, tests of storage alone), whose events have no socket to reach.
    let events: (any LiveEventBus)?

    /// Opens (creating if needed) the database at `path` and brings its schema up to date; at
    /// most `maxBatch` concurrent writes share a transaction (1 turns grouping off); the live
    /// events of applied plans go to `events`.
    public init(path: String, maxBatch: Int = 256, events: (any LiveEventBus)? = nil) throws {
        self.events = events
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Sorts and savepoint journals in memory: on disk each was a temp file made and
            // deleted in /var/tmp (50 in three seconds of the load run's mix).
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // What is deleted or overwritten is zeroed in the file, not left in free space: an
            // erased account's bio, name and photos must not be recoverable from it.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        // Password hashes and messages: the file is created owner-only (SQLite gives its -wal and
        // -shm files the same mode), not with the umask's 0644.
        try PrivateFile.createIfMissing(at: path)
        pool = try DatabasePool(path: path, configuration: configuration)
        // A transaction answered 2xx must survive a crash of the machine, not only of the process:
        // the committing connection syncs the log on every commit. Not in `prepareDatabase`: the
        // pool runs that first and then, switching its writer to WAL, sets `synchronous = NORMAL`
        // (a sync only at checkpoints), which is what the writer ran with until 2026-11-27.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // The committing connection copies the log into the file (and syncs the file) once the
            // log holds this many pages, not SQLite's default 1 000: a send dirties a few pages that
            // the next sends dirty again (the messages' last leaf, the conversations), so copying
            // them ten times less often saves each send about a tenth of its CPU (compare.sh
            // --mix send:1: +15-24% sends/s, BENCHMARKS.md). The log then grows to about 40 MB
            // and is reused from its start after each copy; commits are synced as before.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 10000")
        }
        try SQLiteMigrations.migrator.migrate(pool)
        blockParties = BlockPartiesMemo(
            parties: try pool.read { db in
                Set(
                    try String.fetchAll(
                        db,
                        sql: """
                            SELECT blocker_id FROM blocks UNION SELECT blocked_id FROM blocks
                            UNION SELECT id FROM users WHERE deleted_at IS NOT NULL
                            """))
            })
        writer = GroupCommitWriter(pool: pool, maxBatch: maxBatch)
    }

    /// The names of the migrations applied so far, oldest first.
    public func appliedMigrations() async throws -> [String] {
        try await pool.read { db in try SQLiteMigrations.migrator.appliedMigrations(db) }
    }
}

// MARK: Row mapping shared by the extensions

extension SQLiteStore {
    /// The next value of a table's `seq` column; safe because SQLite serialises writers.
    package static func nextSeq(_ db: Database, table: SeqTable) throws -> Int64 {
        let current =
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(seq), 0) FROM \(table.rawValue)")) ?? 0
        return current + 1
    }

    /// Tables that carry a `seq` column (an allow-list, so no text reaches SQL unchecked).
    package enum SeqTable: String {
        case products, messages, notifications, offers, favourites, reviews, blocks, reports
        case moderationActions = "moderation_actions"
    }

    static func userRecord(_ row: Row) throws -> UserRecord {
        let id = try row.decode(String.self, forColumn: "id")
        let digest = try row.decode(String?.self, forColumn: "photo_digest")
        let user = User(
            id: id,
            username: try row.decode(String.self, forColumn: "username"),
            displayName: try row.decode(String.self, forColumn: "display_name"),
            bio: try row.decode(String?.self, forColumn: "bio"),
            photoURL: digest.map { StoredValues.photoURL(userId: id, digest: $0) },
            createdAt: StoredValues.date(try row.decode(Int64.self, forColumn: "created_at")),
            ratingAverage: User.ratingAverage(
                sum: try row.decode(Int.self, forColumn: "rating_sum"),
                count: try row.decode(Int.self, forColumn: "rating_count")),
            ratingCount: try row.decode(Int.self, forColumn: "rating_count")
        )
        return UserRecord.stored(
            user, passwordHash: try row.decode(String.self, forColumn: "password_hash"),
            role: try StoredValues.decode(row.decode(String.self, forColumn: "role"), as: "a user's role"),
            suspendedAt: try row.decode(Int64?.self, forColumn: "suspended_at").map(StoredValues.date),
            deletedAt: try row.decode(Int64?.self, forColumn: "deleted_at").map(StoredValues.date))
    }

    static func product(_ row: Row) throws -> Product {
        let id = try row.decode(String.self, forColumn: "id")
        let createdAt = StoredValues.date(try row.decode(Int64.self, forColumn: "created_at"))
        let status = try row.decode(String.self, forColumn: "status")
        return Product(
            id: id,
            sellerId: try row.decode(String.self, forColumn: "seller_id"),
            title: try row.decode(String.self, forColumn: "title"),
            description: try row.decode(String.self, forColumn: "description"),
            priceCents: try row.decode(Int.self, forColumn: "price_cents"),
            currency: try row.decode(String.self, forColumn: "currency"),
            createdAt: createdAt,
            photos: ProductPhotoOrder(column: try row.decode(String.self, forColumn: "photo_ids")).photos(
                productId: id),
            status: try StoredValues.decode(status, as: "a product's status"),
            updatedAt: try row.decode(Int64?.self, forColumn: "updated_at").map(StoredValues.date) ?? createdAt,
            favouriteCount: try row.decode(Int.self, forColumn: "favourite_count")
        )
    }

    static func productRecord(_ row: Row) throws -> ProductRecord {
        ProductRecord(
            product: try product(row), buyerId: try row.decode(String?.self, forColumn: "buyer_id"),
            version: try row.decode(Int64.self, forColumn: "version"))
    }

    static func message(_ row: Row) throws -> Message {
        let conversationId = try row.decode(String.self, forColumn: "conversation_id")
        let removed = try row.decode(Int.self, forColumn: "removed") != 0
        return Message(
            id: try row.decode(String.self, forColumn: "id"),
            conversationId: conversationId,
            senderId: try row.decode(String.self, forColumn: "sender_id"),
            body: try row.decode(String.self, forColumn: "body"),
            createdAt: StoredValues.date(try row.decode(Int64.self, forColumn: "created_at")),
            kind: try StoredValues.decode(try row.decode(String.self, forColumn: "kind"), as: "a message's kind"),
            offerId: try row.decode(String?.self, forColumn: "offer_id"),
            removed: removed,
            // A removed message shows none of its photos.
            attachments: removed
                ? []
                : PhotoEntry.attachments(
                    column: try row.decode(String.self, forColumn: "attachments"), conversationId: conversationId)
        )
    }

    static func notification(_ row: Row) throws -> BazaarAPI.Notification {
        BazaarAPI.Notification(
            id: try row.decode(String.self, forColumn: "id"),
            type: try row.decode(String.self, forColumn: "type"),
            read: try row.decode(Int.self, forColumn: "is_read") != 0,
            createdAt: StoredValues.date(try row.decode(Int64.self, forColumn: "created_at")),
            conversationId: try row.decode(String?.self, forColumn: "conversation_id"),
            messageId: try row.decode(String?.self, forColumn: "message_id"),
            productId: try row.decode(String?.self, forColumn: "product_id"),
            reportId: try row.decode(String?.self, forColumn: "report_id")
        )
    }

    static func review(_ row: Row) throws -> Review {
        Review(
            id: try row.decode(String.self, forColumn: "id"),
            productId: try row.decode(String.self, forColumn: "product_id"),
            authorId: try row.decode(String.self, forColumn: "author_id"),
            subjectId: try row.decode(String.self, forColumn: "subject_id"),
            rating: try row.decode(Int.self, forColumn: "rating"),
            text: try row.decode(String.self, forColumn: "text"),
            createdAt: StoredValues.date(try row.decode(Int64.self, forColumn: "created_at")))
    }

    static func offer(_ row: Row) throws -> Offer {
        Offer(
            id: try row.decode(String.self, forColumn: "id"),
            productId: try row.decode(String.self, forColumn: "product_id"),
            conversationId: try row.decode(String.self, forColumn: "conversation_id"),
            buyerId: try row.decode(String.self, forColumn: "buyer_id"),
            amountCents: try row.decode(Int.self, forColumn: "amount_cents"),
            currency: try row.decode(String.self, forColumn: "currency"),
            status: try StoredValues.decode(try row.decode(String.self, forColumn: "status"), as: "an offer's status"),
            createdAt: StoredValues.date(try row.decode(Int64.self, forColumn: "created_at")),
            updatedAt: StoredValues.date(try row.decode(Int64.self, forColumn: "updated_at")))
    }

    static let userColumns =
        """
        id, username, display_name, bio, password_hash, photo_digest, created_at, rating_sum, rating_count, role,
        suspended_at, deleted_at
        """

    static func fetchUser(_ db: Database, id: String) throws -> UserRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(userColumns) FROM users WHERE id = ?"), arguments: [id]).map(
            userRecord)
    }

    static func fetchProduct(_ db: Database, id: String) throws -> Product? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM products WHERE id = ? AND hidden = 0"), arguments: [id]
        ).map(product)
    }

    static func fetchMessage(_ db: Database, id: String) throws -> Message? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM messages WHERE id = ?"), arguments: [id]).map(message)
    }

    /// Maps a uniqueness violation to ``StoreError/conflict(_:)``; other errors pass through.
    static func mappingConflicts<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        {
            throw StoreError.conflict(what)
        }
    }
}

extension SQLiteStore {
    /// Reads from the database once; a file that cannot be read is ``StoreError/unavailable(_:)``.
    public func checkHealth() async throws {
        do {
            _ = try await pool.read { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT 1")) }
        } catch {
            throw StoreError.unavailable("the SQLite database cannot be read")
        }
    }
}
