import BazaarAPI
import Foundation

/// A photo uploaded to a conversation, to be sent with a message (or sent with one already).
public struct AttachmentRecord: Sendable, Equatable {
    /// Its id.
    public var id: String
    /// The conversation it was uploaded to.
    public var conversationId: String
    /// Who uploaded it: the only one who may send it.
    public var uploaderId: String
    /// The message it was sent with, or `nil` while it waits to be sent.
    public var messageId: String?
    /// Its full size's dimensions.
    public var dimensions: PixelSize
    /// The bytes of all its sizes.
    public var byteCount: Int
    /// When it was uploaded.
    public var createdAt: Date

    /// A record.
    public init(
        id: String, conversationId: String, uploaderId: String, messageId: String?, dimensions: PixelSize,
        byteCount: Int, createdAt: Date
    ) {
        self.id = id
        self.conversationId = conversationId
        self.uploaderId = uploaderId
        self.messageId = messageId
        self.dimensions = dimensions
        self.byteCount = byteCount
        self.createdAt = createdAt
    }

    /// The photo as a message shows it.
    public var photo: Photo {
        PhotoEntry(id: id, dimensions: dimensions).attachment(conversationId: conversationId)
    }
}

/// A chat photo being uploaded, with the limits its uploader is held to.
public struct NewAttachment: Sendable {
    /// The upload's record (no message yet).
    public var record: AttachmentRecord
    /// Its sizes.
    public var sizes: PhotoSizes
    /// The most photos the uploader may hold uploaded and not yet sent, over every conversation.
    public var pendingLimit: Int
    /// The most bytes the uploader's chat photos, sent or not, may take with this one.
    public var allowance: Int

    /// An upload.
    public init(record: AttachmentRecord, sizes: PhotoSizes, pendingLimit: Int, allowance: Int) {
        self.record = record
        self.sizes = sizes
        self.pendingLimit = pendingLimit
        self.allowance = allowance
    }
}

/// What came of storing a chat photo.
public enum AttachmentUpload: Sendable, Equatable {
    /// Stored.
    case added(AttachmentRecord)
    /// The uploader already holds ``NewAttachment/pendingLimit`` photos not yet sent.
    case tooManyPending
    /// The uploader's chat photos would pass ``NewAttachment/allowance``.
    case storageFull
}

extension PhotoEntry {
    /// This photo as an attachment of conversation `conversationId`.
    public func attachment(conversationId: String) -> Photo {
        photo(fullURL: APIRoutes.attachment.path(conversationId, id))
    }

    /// A message's `attachments` column read as its photos.
    public static func attachments(column: String, conversationId: String) -> [Photo] {
        guard !column.isEmpty else { return [] }
        return entries(column: column).map { $0.attachment(conversationId: conversationId) }
    }

    /// The `attachments` column of a message carrying `photos`.
    public static func column(of photos: [Photo]) -> String {
        column(
            photos.map { photo in
                PhotoEntry(
                    id: photo.id,
                    dimensions: photo.width.flatMap { width in
                        photo.height.map { PixelSize(width: width, height: $0) }
                    })
            })
    }
}
