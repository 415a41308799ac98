import BazaarAPI
import BazaarPostgres
import BazaarStorage
import Foundation
import NIOCore
import PostgresNIO

/// ``CatalogueBulkWriter`` on PostgreSQL: each batch is one `INSERT … SELECT FROM unnest(…)` per
/// table, the arrays bound as parameters; search vectors made here, as the store makes them.
struct PostgresCatalogueWriter: CatalogueBulkWriter {
    let database: BazaarPostgres.PostgresDatabase
    let url: PostgresURL

    func insert(users: [NewUser]) async throws {
        try await database.rows(
            """
            INSERT INTO users (id, username, display_name, bio, password_hash, photo_digest, created_at)
            SELECT id, username, display_name, NULL, password_hash, NULL, created_at
            FROM unnest(\(users.map(\.id))::TEXT[], \(users.map(\.username))::TEXT[], \(users.map(\.displayName))::TEXT[],
                \(users.map(\.passwordHash))::TEXT[], \(users.map { StoredValues.millis($0.createdAt) })::BIGINT[])
                AS u(id, username, display_name, password_hash, created_at)
            """)
    }

    func insert(products: [Product], photos: [BulkProductPhoto]) async throws {
        let vectors = try products.map {
            try PostgresSearchVectors.vectors(title: $0.title, description: $0.description)
        }
        let photoColumns = photos.photoColumns()
        try await database.rows(
            """
            INSERT INTO products (
                id, seller_id, title, description, price_cents, currency, created_at, search_vector, title_vector, photo_ids,
                status)
            SELECT id, seller_id, title, description, price_cents, currency, created_at, search::TSVECTOR, title_only::TSVECTOR,
                photo_ids, status
            FROM unnest(\(products.map(\.id))::TEXT[], \(products.map(\.sellerId))::TEXT[], \(products.map(\.title))::TEXT[],
                \(products.map(\.description))::TEXT[], \(products.map { Int64($0.priceCents) })::BIGINT[],
                \(products.map(\.currency))::TEXT[], \(products.map { StoredValues.millis($0.createdAt) })::BIGINT[],
                \(vectors.map(\.search))::TEXT[], \(vectors.map(\.title))::TEXT[], \(products.map { photoColumns[$0.id] ?? "" })::TEXT[],
                \(products.map(\.status.rawValue))::TEXT[])
                WITH ORDINALITY
                AS p(id, seller_id, title, description, price_cents, currency, created_at, search, title_only, photo_ids, status,
                    position)
            ORDER BY position
            """)
        guard !photos.isEmpty else { return }
        let fulls = photos.map(\.photo.sizes.full)
        try await database.rows(
            """
            INSERT INTO product_photos (id, product_id, media_type, digest, data, created_at)
            SELECT * FROM unnest(\(photos.map(\.photo.id))::TEXT[], \(photos.map(\.productId))::TEXT[],
                \(fulls.map(\.mediaType))::TEXT[], \(fulls.map(\.digest))::TEXT[], \(fulls.map { _ in ByteBuffer() })::BYTEA[],
                \(fulls.map { StoredValues.millis($0.updatedAt) })::BIGINT[])
            """)
        let sizes = photos.flatMap { item in item.photo.sizes.all.map { (item.photo.id, $0.size.rawValue, $0.photo) } }
        try await database.rows(
            """
            INSERT INTO photo_sizes (photo_id, size, media_type, digest, data)
            SELECT * FROM unnest(\(sizes.map(\.0))::TEXT[], \(sizes.map(\.1))::TEXT[],
                \(sizes.map(\.2.mediaType))::TEXT[], \(sizes.map(\.2.digest))::TEXT[],
                \(sizes.map { ByteBuffer(bytes: $0.2.data) })::BYTEA[])
            """)
    }

    func insert(conversations: [BulkConversation]) async throws {
        let items = conversations.filter { !$0.messages.isEmpty }
        guard !items.isEmpty else { return }
        let pairs = items.map { $0.userIds.0 < $0.userIds.1 ? $0.userIds : ($0.userIds.1, $0.userIds.0) }
        try await database.rows(
            """
            INSERT INTO conversations (id, user_low, user_high, product_id, product_key, last_message_id, created_at, updated_at)
            SELECT id, low, high, product, product, last_message, created_at, updated_at
            FROM unnest(\(items.map(\.id))::TEXT[], \(pairs.map(\.0))::TEXT[], \(pairs.map(\.1))::TEXT[],
                \(items.map(\.productId))::TEXT[], \(items.map { $0.messages.last?.id ?? "" })::TEXT[],
                \(items.map { StoredValues.millis($0.createdAt) })::BIGINT[],
                \(items.map { StoredValues.millis($0.messages.last?.createdAt ?? $0.createdAt) })::BIGINT[])
                AS c(id, low, high, product, last_message, created_at, updated_at)
            """)
        let messages = items.flatMap { item in item.messages.map { (item.id, $0) } }
        try await database.rows(
            """
            INSERT INTO messages (id, conversation_id, sender_id, body, created_at)
            SELECT id, conversation_id, sender_id, body, created_at
            FROM unnest(\(messages.map(\.1.id))::TEXT[], \(messages.map(\.0))::TEXT[], \(messages.map(\.1.senderId))::TEXT[],
                \(messages.map(\.1.body))::TEXT[], \(messages.map { StoredValues.millis($0.1.createdAt) })::BIGINT[])
                WITH ORDINALITY AS m(id, conversation_id, sender_id, body, created_at, position)
            ORDER BY position
            """)
        // Both have read everything: the catalogue starts with no unread messages.
        let members: [(String, String)] = zip(items, pairs).flatMap { item, pair in
            [(item.id, pair.0), (item.id, pair.1)]
        }
        try await database.rows(
            """
            INSERT INTO conversation_reads (conversation_id, user_id, last_read_seq)
            SELECT r.conversation_id, r.user_id, (SELECT MAX(seq) FROM messages m WHERE m.conversation_id = r.conversation_id)
            FROM unnest(\(members.map(\.0))::TEXT[], \(members.map(\.1))::TEXT[]) AS r(conversation_id, user_id)
            """)
    }

    func finish() async throws {
        try await database.rows("VACUUM ANALYZE")
    }

    func databaseBytes() async throws -> Int64 {
        try await database.rows("SELECT pg_database_size(current_database())").first?.decode(Int64.self) ?? 0
    }

    func close() async {
        await database.close()
    }
}
