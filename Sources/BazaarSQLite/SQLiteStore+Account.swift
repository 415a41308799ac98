import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    public func reviews(authorId: String, before position: Int64?, limit: Int) async throws -> Slice<Review> {
        try await pool.read { db in
            try Self.newestFirst(
                db, table: "reviews", where: "author_id", equals: authorId, before: position, limit: limit,
                map: Self.review)
        }
    }

    /// Erases the account in one transaction, then closes its sockets and checkpoints the WAL
    /// into the file and truncates it: with `secure_delete` on (every connection sets it), the
    /// erased cells and pages were overwritten with zeros, so neither the file nor the WAL holds
    /// the erased bio, name or photos afterwards.
    public func eraseAccount(userId: String, now: Date) async throws {
        let nowMillis = StoredValues.millis(now)
        // Before the write, as for a block: a send to them is checked from now on, and refused.
        blockParties.add(userId, userId)
        let (revoked, photographed) = try await writer.write { db -> ([String], [String]) in
            let revoked = try Self.revokeSessions(of: userId, except: nil, at: nowMillis, in: db)
            // Their chat photos go (each size with it); their messages stay, showing none.
            try db.run(sql: "DELETE FROM attachments WHERE uploader_id = ?", arguments: [userId])
            let photographed = try String.fetchAll(
                db,
                sql: """
                    UPDATE messages SET attachments = '' WHERE sender_id = ? AND attachments <> ''
                    RETURNING conversation_id
                    """, arguments: [userId])
            try db.run(
                sql: "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = ?)",
                arguments: [userId])
            // Their listings: the open offers on them declined, their saves, photos and rows gone;
            // conversations about them stay, about no product.
            try db.run(
                sql: """
                    UPDATE offers SET status = 'declined', updated_at = ?
                    WHERE status = 'open' AND product_id IN (SELECT id FROM products WHERE seller_id = ?)
                    """,
                arguments: [nowMillis, userId])
            try db.run(
                sql: "UPDATE offers SET status = 'withdrawn', updated_at = ? WHERE status = 'open' AND buyer_id = ?",
                arguments: [nowMillis, userId])
            // Their saves of others' listings, each count moved down with it.
            try db.run(
                sql: """
                    UPDATE products SET favourite_count = favourite_count - 1
                    WHERE id IN (SELECT product_id FROM favourites WHERE user_id = ?)
                    """,
                arguments: [userId])
            try db.run(sql: "DELETE FROM favourites WHERE user_id = ?", arguments: [userId])
            let products = try String.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM products WHERE seller_id = ?"), arguments: [userId])
            for id in products {
                try db.run(sql: "DELETE FROM favourites WHERE product_id = ?", arguments: [id])
                try db.run(sql: "UPDATE conversations SET product_id = NULL WHERE product_id = ?", arguments: [id])
                try db.run(sql: "DELETE FROM product_photos WHERE product_id = ?", arguments: [id])
                try db.run(sql: "DELETE FROM products WHERE id = ?", arguments: [id])
            }
            try db.run(sql: "DELETE FROM blocks WHERE blocker_id = ? OR blocked_id = ?", arguments: [userId, userId])
            try db.run(sql: "DELETE FROM notifications WHERE user_id = ?", arguments: [userId])
            try db.run(sql: "DELETE FROM idempotency_keys WHERE user_id = ?", arguments: [userId])
            try db.run(sql: "DELETE FROM photos WHERE user_id = ?", arguments: [userId])
            try db.run(
                sql: """
                    UPDATE users SET display_name = '', bio = NULL, photo_digest = NULL, password_hash = '',
                        role = 'member', deleted_at = ?
                    WHERE id = ?
                    """,
                arguments: [nowMillis, userId])
            return (revoked, photographed)
        }
        newestMessages.forget(conversationIds: Set(photographed))
        await announce(revoked)
        // The erasure has committed; what is left is to move the zeroed pages into the file and
        // empty the WAL of the old ones. When readers keep this checkpoint from finishing (busy
        // past the timeout), SQLite's own next checkpoint moves the pages: the erasure stands, and
        // is not answered as a failure after it happened.
        do {
            _ = try await pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        } catch {
            // Nothing to undo and nothing the caller can do; see above.
        }
    }
}
