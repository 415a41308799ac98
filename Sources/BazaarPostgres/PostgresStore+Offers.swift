import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    static let offerColumns =
        "id, seq, product_id, conversation_id, buyer_id, amount_cents, currency, status, created_at, updated_at"

    /// The offer with this id, or `nil`.
    public func offer(id: String) async throws -> Offer? {
        try await database.rows("SELECT \(unescaped: Self.offerColumns) FROM offers WHERE id = \(id)").first.map(
            Self.offer)
    }

    /// The open offers on a product, oldest first.
    public func openOffers(productId: String) async throws -> [Offer] {
        try await database.rows(
            """
            SELECT \(unescaped: Self.offerColumns) FROM offers WHERE product_id = \(productId) AND status = 'open'
            ORDER BY seq
            """
        ).map(Self.offer)
    }

    /// A conversation's offers, newest first.
    public func offers(conversationId: String, before position: Int64?, limit: Int) async throws -> Slice<Offer> {
        let rows = try await database.rows(
            """
            SELECT \(unescaped: Self.offerColumns) FROM offers
            WHERE conversation_id = \(conversationId) AND seq < \(position ?? Int64.max)
            ORDER BY seq DESC LIMIT \(Int64(limit + 1))
            """)
        return try Self.slice(rows, limit: limit, map: Self.offer)
    }

    /// What the request with this key made, or `nil`.
    public func idempotencyResult(owner: String, key: String) async throws -> String? {
        try await database.rows(
            "SELECT message_id FROM idempotency_keys WHERE user_id = \(owner) AND idem_key = \(key)"
        ).first?.decode(String.self)
    }

    /// An offer from a row of ``offerColumns``, decoded by position.
    static func offer(_ row: PostgresRow) throws -> Offer {
        let (id, _, productId, conversationId, buyerId, amount, currency, status, createdAt, updatedAt) =
            try row.decode((String, Int64, String, String, String, Int64, String, String, Int64, Int64).self)
        return Offer(
            id: id, productId: productId, conversationId: conversationId, buyerId: buyerId, amountCents: Int(amount),
            currency: currency, status: try StoredValues.decode(status, as: "an offer's status"),
            createdAt: StoredValues.date(createdAt),
            updatedAt: StoredValues.date(updatedAt))
    }
}
