import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Stores a chat photo, its uploader's limits checked in the same transaction (the uploader's
    /// row locked first, so two uploads at once are counted one after the other).
    public func addAttachment(_ attachment: NewAttachment) async throws -> AttachmentUpload {
        let record = attachment.record
        return try await database.withTransaction { transaction in
            try await transaction.rows("SELECT 1 FROM users WHERE id = \(record.uploaderId) FOR UPDATE")
            guard
                let row = try await transaction.rows(
                    """
                    SELECT COUNT(*) FILTER (WHERE message_id IS NULL)::BIGINT, COALESCE(SUM(byte_count), 0)::BIGINT
                    FROM attachments WHERE uploader_id = \(record.uploaderId)
                    """
                ).first
            else { throw StoreError.corrupt("an aggregate answered no row") }
            let (pending, stored) = try row.decode((Int64, Int64).self)
            guard pending < attachment.pendingLimit else { return .tooManyPending }
            guard Int(stored) + record.byteCount <= attachment.allowance else { return .storageFull }
            try await transaction.rows(
                """
                INSERT INTO attachments (id, conversation_id, uploader_id, message_id, width, height, byte_count, created_at)
                VALUES (\(record.id), \(record.conversationId), \(record.uploaderId), NULL, \(record.dimensions.width),
                    \(record.dimensions.height), \(Int64(record.byteCount)), \(StoredValues.millis(record.createdAt)))
                """)
            try await Self.insertSizes(transaction, attachment.sizes, photoId: record.id)
            return .added(record)
        }
    }

    /// The chat photos with these ids.
    public func attachments(ids: [String]) async throws -> [AttachmentRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.rows(
            """
            SELECT id, conversation_id, uploader_id, message_id, width, height, byte_count, created_at
            FROM attachments WHERE id = ANY(\(ids)::TEXT[])
            """
        ).map { row in
            let (id, conversationId, uploaderId, messageId, width, height, byteCount, createdAt) = try row.decode(
                (String, String, String, String?, Int, Int, Int64, Int64).self)
            return AttachmentRecord(
                id: id, conversationId: conversationId, uploaderId: uploaderId, messageId: messageId,
                dimensions: PixelSize(width: width, height: height), byteCount: Int(byteCount),
                createdAt: StoredValues.date(createdAt))
        }
    }

    /// One size of a chat photo, for a member once it is sent, or for its uploader.
    public func attachmentPhoto(conversationId: String, attachmentId: String, viewerId: String, size: PhotoSize)
        async throws -> StoredPhoto?
    {
        guard
            let row = try await database.rows(
                """
                SELECT ps.media_type, ps.data, ps.digest, a.created_at
                FROM attachments a
                JOIN conversations c ON c.id = a.conversation_id
                JOIN photo_sizes ps ON ps.photo_id = a.id AND ps.size = \(size.rawValue)
                LEFT JOIN messages m ON m.id = a.message_id
                WHERE a.id = \(attachmentId) AND a.conversation_id = \(conversationId)
                  AND ((a.message_id IS NOT NULL AND NOT m.removed AND \(viewerId) IN (c.user_low, c.user_high))
                       OR (a.message_id IS NULL AND a.uploader_id = \(viewerId)))
                """
            ).first
        else { return nil }
        return try Self.storedPhoto(row.makeRandomAccess(), timeColumn: "created_at")
    }
}
