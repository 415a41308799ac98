import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// Stores a chat photo, its uploader's limits checked in the same write.
    public func addAttachment(_ attachment: NewAttachment) async throws -> AttachmentUpload {
        let record = attachment.record
        return try await writer.write { db in
            // Writers are serialised, so neither count can move before the insert.
            let pending =
                try Int.fetchOne(
                    db,
                    sql: "SELECT COUNT(*) FROM attachments WHERE uploader_id = ? AND message_id IS NULL",
                    arguments: [record.uploaderId]) ?? 0
            guard pending < attachment.pendingLimit else { return .tooManyPending }
            let stored =
                try Int.fetchOne(
                    db, sql: "SELECT COALESCE(SUM(byte_count), 0) FROM attachments WHERE uploader_id = ?",
                    arguments: [record.uploaderId]) ?? 0
            guard stored + record.byteCount <= attachment.allowance else { return .storageFull }
            try db.run(
                sql: """
                    INSERT INTO attachments (id, conversation_id, uploader_id, message_id, width, height, byte_count,
                        created_at)
                    VALUES (?, ?, ?, NULL, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.id, record.conversationId, record.uploaderId, record.dimensions.width,
                    record.dimensions.height, record.byteCount, StoredValues.millis(record.createdAt),
                ])
            try Self.insertSizes(db, attachment.sizes, photoId: record.id)
            return .added(record)
        }
    }

    /// The chat photos with these ids.
    public func attachments(ids: [String]) async throws -> [AttachmentRecord] {
        guard !ids.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        return try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM attachments WHERE id IN (\(placeholders))", arguments: StatementArguments(ids)
            ).map(Self.attachment)
        }
    }

    /// One size of a chat photo, for a member once it is sent, or for its uploader.
    public func attachmentPhoto(conversationId: String, attachmentId: String, viewerId: String, size: PhotoSize)
        async throws -> StoredPhoto?
    {
        try await pool.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT ps.media_type, ps.data, ps.digest, a.created_at
                        FROM attachments a
                        JOIN conversations c ON c.id = a.conversation_id
                        JOIN photo_sizes ps ON ps.photo_id = a.id AND ps.size = ?
                        LEFT JOIN messages m ON m.id = a.message_id
                        WHERE a.id = ? AND a.conversation_id = ?
                          AND ((a.message_id IS NOT NULL AND m.removed = 0 AND ? IN (c.user_low, c.user_high))
                               OR (a.message_id IS NULL AND a.uploader_id = ?))
                        """),
                arguments: [size.rawValue, attachmentId, conversationId, viewerId, viewerId]
            ).map { row in try Self.storedPhoto(row, timeColumn: "created_at") }
        }
    }

    /// An attachment from a row of `attachments`.
    static func attachment(_ row: Row) throws -> AttachmentRecord {
        AttachmentRecord(
            id: try row.decode(String.self, forColumn: "id"),
            conversationId: try row.decode(String.self, forColumn: "conversation_id"),
            uploaderId: try row.decode(String.self, forColumn: "uploader_id"),
            messageId: try row.decode(String?.self, forColumn: "message_id"),
            dimensions: PixelSize(
                width: try row.decode(Int.self, forColumn: "width"),
                height: try row.decode(Int.self, forColumn: "height")),
            byteCount: try row.decode(Int.self, forColumn: "byte_count"),
            createdAt: StoredValues.date(try row.decode(Int64.self, forColumn: "created_at")))
    }
}
