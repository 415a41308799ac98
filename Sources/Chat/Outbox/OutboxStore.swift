import Dependencies
import Foundation
import GRDB
import Networking

/// Where the outbox keeps its entries. One implementation, ``OutboxStore``; the protocol is the seam
/// where tests put a store that fails on purpose.
protocol OutboxStorage: Sendable {
    /// Writes a new entry, with the bytes of its photos, at the end of the queue (one transaction).
    func insert(_ entry: OutboxEntry, photos: [PhotoToSend]) throws
    /// The photos of an entry not yet delivered, in order, with what their uploads left.
    func photos(of id: String) throws -> [OutboxStore.StoredPhoto]
    /// Records that the photo at `position` of an entry was uploaded as `attachmentID` at `time`.
    func recordUpload(of id: String, position: Int, attachmentID: String, at time: Date) throws
    /// Records a new state (and attempt count) for an entry.
    func update(_ id: String, state: OutboxState, attempts: Int) throws
    /// Records the conversation a message to a person turned out to belong to.
    func setConversation(_ conversationID: String, for id: String) throws
    /// Entries still to deliver (queued, or caught mid-send by a crash), in queue order.
    func pending() throws -> [OutboxStore.Row]
    /// Every entry, in queue order.
    func all() throws -> [OutboxStore.Row]
    /// One entry.
    func row(_ id: String) throws -> OutboxStore.Row?
}

/// The outbox's SQLite file: every queued message is written here before anything is sent, so it
/// survives a crash of the app or a server that is down. Each change is one transaction, and the
/// file is synced (`synchronous = FULL`) before a write returns.
final class OutboxStore: OutboxStorage {
    /// A row as stored: the entry plus what delivery learns on the way.
    struct Row: Sendable, Equatable {
        var sequence: Int64
        var entry: OutboxEntry
        /// The conversation, once known (given, or found at delivery time).
        var conversationID: String?
    }

    /// A photo waiting with its message: the bytes, and the server's attachment once uploaded.
    struct StoredPhoto: Sendable, Equatable {
        var position: Int
        var photo: PhotoToSend
        /// The attachment the upload made, if it was made.
        var attachmentID: String?
        /// When that upload was made (the server forgets unsent photos after a day).
        var uploadedAt: Date?
    }

    private let queue: DatabaseQueue

    /// Opens (creating if needed) the outbox at `path`.
    init(path: String) throws {
        var configuration = Configuration()
        // The app and a `bazaar outbox flush` may share the file: wait for each other's writes.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE outbox (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                        id TEXT NOT NULL UNIQUE,
                        conversation_id TEXT,
                        recipient_user_id TEXT,
                        recipient_product_id TEXT,
                        body TEXT NOT NULL,
                        state TEXT NOT NULL,
                        message_id TEXT,
                        reason TEXT,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        created_at DOUBLE NOT NULL
                    )
                    """)
        }
        // Photos wait beside their message until it is delivered; then their bytes go.
        migrator.registerMigration("v2-photos") { db in
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN photo_count INTEGER NOT NULL DEFAULT 0")
            try db.execute(
                sql: """
                    CREATE TABLE outbox_photos (
                        entry_id TEXT NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        media_type TEXT NOT NULL,
                        data BLOB NOT NULL,
                        attachment_id TEXT,
                        uploaded_at DOUBLE,
                        PRIMARY KEY (entry_id, position)
                    )
                    """)
        }
        try migrator.migrate(queue)
    }

    /// Writes a new entry, with the bytes of its photos, at the end of the queue (one transaction).
    func insert(_ entry: OutboxEntry, photos: [PhotoToSend]) throws {
        let (conversation, user, product) = Self.columns(entry.recipient)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO outbox (id, conversation_id, recipient_user_id, recipient_product_id, body, state, attempts, created_at, photo_count)
                    VALUES (?, ?, ?, ?, ?, 'queued', 0, ?, ?)
                    """,
                arguments: [
                    entry.id, conversation, user, product, entry.body, entry.createdAt.timeIntervalSince1970,
                    photos.count,
                ])
            for (position, photo) in photos.enumerated() {
                try db.execute(
                    sql: "INSERT INTO outbox_photos (entry_id, position, media_type, data) VALUES (?, ?, ?, ?)",
                    arguments: [entry.id, position, photo.mediaType.description, photo.data])
            }
        }
    }

    /// Records a new state (and attempt count) for an entry; a final state lets go of its photos'
    /// bytes in the same transaction.
    func update(_ id: String, state: OutboxState, attempts: Int) throws {
        let (name, messageID, reason) = Self.columns(state)
        try queue.write { db in
            try db.execute(
                sql: "UPDATE outbox SET state = ?, message_id = ?, reason = ?, attempts = ? WHERE id = ?",
                arguments: [name, messageID, reason, attempts, id])
            if state.isFinal {
                try db.execute(sql: "DELETE FROM outbox_photos WHERE entry_id = ?", arguments: [id])
            }
        }
    }

    /// The photos of an entry not yet delivered, in order, with what their uploads left.
    func photos(of id: String) throws -> [StoredPhoto] {
        try queue.read { db in
            try GRDB.Row.fetchAll(
                db, sql: "SELECT * FROM outbox_photos WHERE entry_id = ? ORDER BY position", arguments: [id]
            ).map { row in
                let mediaType: String = row["media_type"]
                let uploadedAt: Double? = row["uploaded_at"]
                return StoredPhoto(
                    position: row["position"],
                    photo: PhotoToSend(data: row["data"], mediaType: MediaType(mediaType)),
                    attachmentID: row["attachment_id"], uploadedAt: uploadedAt.map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    /// Records that the photo at `position` of an entry was uploaded as `attachmentID` at `time`.
    func recordUpload(of id: String, position: Int, attachmentID: String, at time: Date) throws {
        try queue.write { db in
            try db.execute(
                sql: "UPDATE outbox_photos SET attachment_id = ?, uploaded_at = ? WHERE entry_id = ? AND position = ?",
                arguments: [attachmentID, time.timeIntervalSince1970, id, position])
        }
    }

    /// Records the conversation a message to a person turned out to belong to.
    func setConversation(_ conversationID: String, for id: String) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE outbox SET conversation_id = ? WHERE id = ?", arguments: [conversationID, id])
        }
    }

    /// Entries still to deliver (queued, or caught mid-send by a crash), in queue order.
    func pending() throws -> [Row] {
        try rows(where: "state IN ('queued', 'sending')")
    }

    /// Every entry, in queue order.
    func all() throws -> [Row] {
        try rows(where: "1 = 1")
    }

    /// One entry.
    func row(_ id: String) throws -> Row? {
        try queue.read { db in
            try GRDB.Row.fetchOne(db, sql: "SELECT * FROM outbox WHERE id = ?", arguments: [id]).map(Self.row)
        }
    }

    private func rows(where condition: String) throws -> [Row] {
        try queue.read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE \(condition) ORDER BY sequence").map(Self.row)
        }
    }

    private static func row(_ row: GRDB.Row) -> Row {
        let conversationID: String? = row["conversation_id"]
        let userID: String? = row["recipient_user_id"]
        let recipient: OutboxRecipient =
            if let userID { .user(id: userID, productID: row["recipient_product_id"]) } else {
                .conversation(id: conversationID ?? "")
            }
        let stateName: String = row["state"]
        let state: OutboxState =
            switch stateName {
            case "sending": .sending
            case "sent": .sent(messageID: row["message_id"] ?? "")
            case "failed": .failed(reason: row["reason"] ?? "")
            default: .queued
            }
        let entry = OutboxEntry(
            id: row["id"], recipient: recipient, body: row["body"], state: state, attempts: row["attempts"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]), photoCount: row["photo_count"])
        return Row(sequence: row["sequence"], entry: entry, conversationID: conversationID)
    }

    private static func columns(_ recipient: OutboxRecipient) -> (String?, String?, String?) {
        switch recipient {
        case .conversation(let id): (id, nil, nil)
        case .user(let id, let productID): (nil, id, productID)
        }
    }

    private static func columns(_ state: OutboxState) -> (String, String?, String?) {
        switch state {
        case .queued: ("queued", nil, nil)
        case .sending: ("sending", nil, nil)
        case .sent(let messageID): ("sent", messageID, nil)
        case .failed(let reason): ("failed", nil, reason)
        }
    }
}
