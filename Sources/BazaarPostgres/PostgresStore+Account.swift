import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    public func reviews(authorId: String, before position: Int64?, limit: Int) async throws -> Slice<Review> {
        let rows = try await database.rows(
            """
            SELECT \(unescaped: Self.reviewColumns) FROM reviews
            WHERE author_id = \(authorId) AND seq < \(position ?? Int64.max) ORDER BY seq DESC LIMIT \(Int64(limit + 1))
            """)
        return try Self.slice(rows, limit: limit, map: Self.review)
    }

    /// Erases the account in one transaction, its sessions' revocation and the change to the
    /// histories its photos leave announced to every replica when it commits.
    public func eraseAccount(userId: String, now: Date) async throws {
        let millis = StoredValues.millis(now)
        // The conversations whose photos go are known only once the erasure has run.
        let revoked = try await newestMessages.whileWriting([], othersUnknown: true) {
            let (revoked, photographed) = try await erase(userId: userId, atMillis: millis)
            if !photographed.isEmpty { newestMessages.forget(conversationIds: photographed) }
            return revoked
        }
        activeSessions.forget(revoked)
    }

    /// The erasure's transaction; answers the sessions it revoked and the conversations in which
    /// it took photos off the user's messages.
    private func erase(userId: String, atMillis millis: Int64) async throws -> ([String], [String]) {
        try await database.withTransaction { transaction in
            // The user's row first, locked: a sign-in or a write racing the erasure waits for it.
            try await transaction.rows("SELECT 1 FROM users WHERE id = \(userId) FOR UPDATE")
            let revoked = try await Self.revokeSessions(of: userId, except: nil, atMillis: millis, in: transaction)
            if !revoked.isEmpty { try await transaction.rows(Self.announceRevocation(of: revoked, at: millis)) }
            try await transaction.rows(
                "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = \(userId))")
            try await transaction.rows(
                """
                UPDATE offers SET status = 'declined', updated_at = \(millis)
                WHERE status = 'open' AND product_id IN (SELECT id FROM products WHERE seller_id = \(userId))
                """)
            try await transaction.rows(
                "UPDATE offers SET status = 'withdrawn', updated_at = \(millis) WHERE status = 'open' AND buyer_id = \(userId)"
            )
            try await transaction.rows(
                """
                UPDATE products SET favourite_count = favourite_count - 1
                WHERE id IN (SELECT product_id FROM favourites WHERE user_id = \(userId))
                """)
            try await transaction.rows("DELETE FROM favourites WHERE user_id = \(userId)")
            try await transaction.rows(
                "DELETE FROM favourites WHERE product_id IN (SELECT id FROM products WHERE seller_id = \(userId))")
            try await transaction.rows(
                """
                UPDATE conversations SET product_id = NULL
                WHERE product_id IN (SELECT id FROM products WHERE seller_id = \(userId))
                """)
            try await transaction.rows(
                "DELETE FROM product_photos WHERE product_id IN (SELECT id FROM products WHERE seller_id = \(userId))")
            try await transaction.rows("DELETE FROM products WHERE seller_id = \(userId)")
            try await transaction.rows("DELETE FROM blocks WHERE blocker_id = \(userId) OR blocked_id = \(userId)")
            try await transaction.rows("DELETE FROM notifications WHERE user_id = \(userId)")
            try await transaction.rows("DELETE FROM idempotency_keys WHERE user_id = \(userId)")
            try await transaction.rows("DELETE FROM photos WHERE user_id = \(userId)")
            // Their chat photos go (each size with it); their messages stay, showing none.
            try await transaction.rows("DELETE FROM attachments WHERE uploader_id = \(userId)")
            var photographed: Set<String> = []
            for row in try await transaction.rows(
                """
                UPDATE messages SET attachments = '' WHERE sender_id = \(userId) AND attachments <> ''
                RETURNING conversation_id
                """)
            {
                photographed.insert(try row.decode(String.self))
            }
            let changed = photographed.sorted()
            if !changed.isEmpty {
                try await transaction.rows(
                    "SELECT bazaar_publish(\(PostgresEventBus.Kind.history.rawValue), \(changed), \(replicaId), \(millis))"
                )
            }
            try await transaction.rows(
                """
                UPDATE users SET display_name = '', bio = NULL, photo_digest = NULL, password_hash = '', role = 'member',
                    deleted_at = \(millis)
                WHERE id = \(userId)
                """)
            return (revoked, changed)
        }
    }
}
