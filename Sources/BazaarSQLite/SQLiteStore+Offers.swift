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
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM offers WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?"),
                arguments: [conversationId, position ?? Int64.max, limit + 1])
            let page = rows.prefix(limit)
            let next = rows.count > limit ? try page.last?.decode(Int64.self, forColumn: "seq") : nil
            return Slice(items: try page.map(Self.offer), next: next)
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
