import BazaarAPI
import BazaarStorage
import Foundation

/// The rules of chat photos, written once for every storage engine.
///
/// A member of a conversation uploads a photo to it (anyone else: 404, as for a conversation that
/// does not exist), then sends it with a message (``MessageService``). Each user holds at most
/// ``pendingLimit`` photos uploaded and not yet sent (past it, 409: send them first), and their
/// chat photos, sent or not, take at most ``bytesPerUser`` (every size counted; past it, 422).
/// Nothing is stored past either.
public struct AttachmentService: Sendable {
    /// The most photos one user holds uploaded and not yet sent (four messages' worth).
    public static let pendingLimit = 16
    /// The most bytes of chat photos one user keeps (256 MiB: thousands of photos at phone sizes,
    /// as sizes are stored).
    public static let bytesPerUser = 256 << 20

    let store: any BazaarStore
    let clock: DomainClock

    /// A service writing to `store`, timing and naming with `clock`.
    package init(store: any BazaarStore, clock: DomainClock) {
        self.store = store
        self.clock = clock
    }

    /// Stores `sizes` as a photo `uploaderId` uploaded to the conversation, ready to send.
    ///
    /// - Throws: ``DomainError`` when the conversation is not the uploader's, or a limit is reached.
    public func upload(_ sizes: PhotoSizes, to conversationId: String, by uploaderId: String) async throws -> Photo {
        guard try await store.conversationMembers(id: conversationId)?.other(than: uploaderId) != nil else {
            throw DomainError.notFound("The conversation")
        }
        let record = AttachmentRecord(
            id: clock.newId(), conversationId: conversationId, uploaderId: uploaderId, messageId: nil,
            dimensions: sizes.dimensions, byteCount: sizes.byteCount, createdAt: clock.now())
        let upload = NewAttachment(
            record: record, sizes: sizes, pendingLimit: Self.pendingLimit, allowance: Self.bytesPerUser)
        switch try await store.addAttachment(upload) {
        case .added(let stored):
            return stored.photo
        case .tooManyPending:
            throw DomainError.conflict(
                code: "too_many_unsent_photos",
                message: "\(Self.pendingLimit) photos you uploaded are waiting to be sent; send them first.")
        case .storageFull:
            throw DomainError.invalidField(
                "photo", "cannot be stored: your chat photos take \(Self.bytesPerUser >> 20) MiB, the most kept")
        }
    }

    /// The photos `ids` name, in that order, when each is one `senderId` uploaded to the
    /// conversation and has not sent: what a message may carry.
    ///
    /// - Throws: ``DomainError/invalidField(_:_:)`` for more than ``Message/attachmentLimit``, a
    ///   repeated id, or one that is not the sender's to send here.
    func sendable(_ ids: [String], in conversationId: String, by senderId: String) async throws -> [Photo] {
        guard !ids.isEmpty else { return [] }
        guard ids.count <= Message.attachmentLimit, Set(ids).count == ids.count else {
            throw DomainError.invalidField(
                "attachmentIds", "must name at most \(Message.attachmentLimit) photos, each once")
        }
        // No other string reaches the store.
        guard ids.allSatisfy(Validation.isId) else { throw Self.notSendable }
        let records = Dictionary(
            uniqueKeysWithValues: try await store.attachments(ids: ids).map { ($0.id, $0) })
        return try ids.map { id in
            guard let record = records[id], record.uploaderId == senderId, record.conversationId == conversationId,
                record.messageId == nil
            else { throw Self.notSendable }
            return record.photo
        }
    }

    /// The refusal of a photo that is gone, sent already, or not the sender's in this conversation.
    static let notSendable = DomainError.invalidField(
        "attachmentIds", "must each name a photo you uploaded to this conversation and have not sent")
}
