import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// The offer with this id, or `nil`.
    public func offer(id: String) async throws -> Offer? {
        try await pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM offers WHERE id = ?"), arguments: [id]).map(
                Self.offer)
        }
    }

    /// The open offers on a product, oldest first.
    public func openOffers(productId: String) async throws -> [Offer] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM offers WHERE product_id = ? AND status = 'open' ORDER BY seq"),
                arguments: [productId]
            ).map(Self.offer)
        }
    }

    /// A conversation's offers, newest first.
    public func offers(conversationId: String, before position: Int64?, limit: Int) async throws -> Slice<Offer> {
        try await pool.read { db in
            try Self.newestFirst(
                db, table: "offers", where: "conversation_id", equals: conversationId, before: position, limit: limit,
                map: Self.offer)
        }
    }

    /// What the request with this key made, or `nil`.
    public func idempotencyResult(owner: String, key: String) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT message_id FROM idempotency_keys WHERE user_id = ? AND idem_key = ?"),
                arguments: [owner, key])
        }
    }
}
