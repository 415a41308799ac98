import BazaarAPI
import BazaarSQLite
import BazaarStorage
import Foundation
import GRDB

/// ``CatalogueBulkWriter`` on a SQLite file: one transaction per batch, statements prepared once,
/// the full-text index kept by the table's own triggers.
///
/// It holds the file's ``SQLiteFileLock`` while it lives: a `bazaar-server` serving the file
/// remembers sessions and each conversation's newest messages as only it writes them, so
/// generating into a served file is refused, and a server cannot start on a file being filled.
struct SQLiteCatalogueWriter: CatalogueBulkWriter {
    let lock: SQLiteFileLock
    let store: SQLiteStore
    let path: String

    init(path: String) throws {
        lock = try SQLiteFileLock(databasePath: path)
        store = try SQLiteStore(path: path)
        self.path = path
    }

    func insert(users: [NewUser]) async throws {
        try await store.pool.write { db in
            let statement = try db.makeStatement(
                sql:
                    "INSERT INTO users (id, username, display_name, bio, password_hash, photo_digest, created_at) VALUES (?, ?, ?, NULL, ?, NULL, ?)"
            )
            for user in users {
                try statement.execute(arguments: [
                    user.id, user.username, user.displayName, user.passwordHash, StoredValues.millis(user.createdAt),
                ])
            }
        }
    }

    func insert(products: [Product], photos: [BulkProductPhoto]) async throws {
        let photoColumns = photos.photoColumns()
        try await store.pool.write { db in
            var seq = try SQLiteStore.nextSeq(db, table: .products)
            let statement = try db.makeStatement(
                sql: """
                    INSERT INTO products (
                        id, seq, seller_id, title, description, price_cents, currency, created_at, photo_ids, status)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for product in products {
                try statement.execute(arguments: [
                    product.id, seq, product.sellerId, product.title, product.description, product.priceCents,
                    product.currency,
                    StoredValues.millis(product.createdAt), photoColumns[product.id] ?? "", product.status.rawValue,
                ])
                seq += 1
            }
            let photo = try db.makeStatement(
                sql:
                    "INSERT INTO product_photos (id, product_id, media_type, digest, data, created_at) VALUES (?, ?, ?, ?, ?, ?)"
            )
            let size = try db.makeStatement(
                sql: "INSERT INTO photo_sizes (photo_id, size, media_type, digest, data) VALUES (?, ?, ?, ?, ?)")
            for item in photos {
                let full = item.photo.sizes.full
                try photo.execute(arguments: [
                    item.photo.id, item.productId, full.mediaType, full.digest, Data(),
                    StoredValues.millis(full.updatedAt),
                ])
                for (name, image) in item.photo.sizes.all {
                    try size.execute(arguments: [
                        item.photo.id, name.rawValue, image.mediaType, image.digest, image.data,
                    ])
                }
            }
        }
    }

    func insert(conversations: [BulkConversation]) async throws {
        try await store.pool.write { db in
            var seq = try SQLiteStore.nextSeq(db, table: .messages)
            let conversation = try db.makeStatement(
                sql: """
                    INSERT INTO conversations (id, user_low, user_high, product_id, product_key, last_message_id, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            let read = try db.makeStatement(
                sql: "INSERT INTO conversation_reads (conversation_id, user_id, last_read_seq) VALUES (?, ?, ?)")
            let message = try db.makeStatement(
                sql:
                    "INSERT INTO messages (id, seq, conversation_id, sender_id, body, created_at) VALUES (?, ?, ?, ?, ?, ?)"
            )
            for item in conversations {
                guard let last = item.messages.last else { continue }
                let (low, high) = item.userIds.0 < item.userIds.1 ? item.userIds : (item.userIds.1, item.userIds.0)
                try conversation.execute(arguments: [
                    item.id, low, high, item.productId, item.productId, last.id, StoredValues.millis(item.createdAt),
                    StoredValues.millis(last.createdAt),
                ])
                for entry in item.messages {
                    try message.execute(arguments: [
                        entry.id, seq, item.id, entry.senderId, entry.body, StoredValues.millis(entry.createdAt),
                    ])
                    seq += 1
                }
                // Both have read everything: the catalogue starts with no unread messages.
                for member in [low, high] { try read.execute(arguments: [item.id, member, seq - 1]) }
            }
        }
    }

    func finish() async throws {
        try await store.pool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO products_fts (products_fts) VALUES ('optimize')")
            try db.execute(sql: "ANALYZE")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    func databaseBytes() async throws -> Int64 {
        try await store.pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
                ?? 0
        }
    }

    func close() async {}
}
