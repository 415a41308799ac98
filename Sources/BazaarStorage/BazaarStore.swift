import BazaarAPI
import Foundation

/// Everything the server keeps, behind one protocol so SQLite and PostgreSQL can both serve it.
///
/// Each method is one transaction: it either happens completely or not at all, and once it
/// returns the change is durable. Ordering uses per-table sequence numbers (`seq`), which a
/// PostgreSQL implementation can take from a `SEQUENCE`; nothing here relies on SQLite rowids.
/// Times are passed in by the caller so tests control the clock.
public protocol BazaarStore: Sendable {
    // MARK: Users

    /// Creates a user; throws ``StoreError/conflict(_:)`` when the username is taken.
    func createUser(_ user: NewUser) async throws -> UserRecord
    /// The user with this id, or `nil`.
    func user(id: String) async throws -> UserRecord?
    /// The user with this username, or `nil`.
    func user(username: String) async throws -> UserRecord?
    /// Gives the user with this username `role` (the operator's `bazaar-server moderators`);
    /// `nil` when nobody has that username.
    func setRole(_ role: UserRole, username: String) async throws -> UserRecord?
    /// Every user with `role`, by username.
    func users(withRole role: UserRole) async throws -> [UserRecord]
    /// Changes display name and/or bio; `nil` leaves a field alone. Returns the updated user.
    func updateProfile(userId: String, displayName: String?, bio: BioChange) async throws -> UserRecord?
    /// Replaces the user's profile photo with `photo`'s sizes. Returns the updated user.
    func setPhoto(userId: String, photo: PhotoSizes) async throws -> UserRecord?
    /// One size of the user's profile photo with its bytes, or `nil` (an upload from before
    /// sizes serves as every size until it is rebuilt).
    func photo(userId: String, size: PhotoSize) async throws -> StoredPhoto?

    // MARK: Sessions and refresh tokens

    /// Starts a session with its first refresh token (stored only as a hash), signed in with
    /// `userAgent` (as the server checked and cut it), only while the account is in good standing
    /// (neither suspended nor deleted) and its password hash is still `passwordHash`, the one the
    /// sign-in checked. Decided under the user's row lock: a suspension, an erasure or a password
    /// change that commits first leaves no session behind, and one that commits after revokes it.
    /// Returns whether the session started.
    func createSession(
        id: String, userId: String, passwordHash: String, refreshTokenHash: String, expiresAt: Date,
        userAgent: String?, now: Date
    ) async throws -> Bool
    /// Spends a refresh token and stores its successor, detecting reuse (see ``RefreshOutcome``
    /// and ``RefreshRotation``). A reuse
    /// revokes the session, and the revocation is announced as by ``revokeSession(id:now:)``.
    ///
    /// `newHash` is the hash of the successor the server derives from the presented token, so
    /// the same token presented again derives the same successor: within `reuseInterval` of the
    /// first spend, while that successor is unspent, the answer is ``RefreshOutcome/replayed(userId:sessionId:)``
    /// (a client whose answer was lost gets the same new token) and nothing is written.
    func rotateRefreshToken(hash: String, newHash: String, newExpiresAt: Date, now: Date, reuseInterval: Duration)
        async throws -> RefreshOutcome
    /// Revokes a session and all its refresh tokens, and announces it
    /// (``LiveEventBus/sessionsRevoked(_:)``): every replica closes the session's sockets. A
    /// session revoked already is left as it was and not announced again.
    func revokeSession(id: String, now: Date) async throws
    /// Whether the session exists and is not revoked.
    func isSessionActive(id: String) async throws -> Bool
    /// The session with this id (revoked or not), or `nil`.
    func session(id: String) async throws -> SessionRecord?
    /// The user's sessions that are not revoked, newest first.
    func activeSessions(userId: String) async throws -> [SessionRecord]
    /// Revokes every session of the user but `except`, and announces it as
    /// ``revokeSession(id:now:)`` does; returns the ids revoked.
    @discardableResult
    func revokeSessions(userId: String, except: String?, now: Date) async throws -> [String]
    /// Stores a new password hash and, in the same transaction, revokes every other session of the
    /// user (announced as ``revokeSession(id:now:)`` does).
    func setPassword(userId: String, hash: String, keepingSession sessionId: String, now: Date) async throws

    // MARK: Blocks

    /// Records that `blockerId` blocks `blockedId`; again changes nothing.
    func saveBlock(blockerId: String, blockedId: String, now: Date) async throws
    /// Removes the block, if there is one.
    func removeBlock(blockerId: String, blockedId: String) async throws
    /// The users `blockerId` blocked, most recently blocked first.
    func blockedUsers(by blockerId: String, before position: Int64?, limit: Int) async throws -> Slice<User>
    /// Of `others`, those who blocked `userId` or whom `userId` blocked.
    func blockedPeers(of userId: String, among others: [String]) async throws -> Set<String>

    // MARK: Reports and moderation

    /// The report with this id, or `nil`.
    func report(id: String) async throws -> StoredReport?
    /// The reporter's open report of this subject, or `nil`.
    func openReport(by reporterId: String, of subjectType: ReportSubjectType, subjectId: String) async throws
        -> StoredReport?
    /// Every open report of this subject (by anyone), oldest first.
    func openReports(of subjectType: ReportSubjectType, subjectId: String) async throws -> [StoredReport]
    /// The reporter's reports, newest first.
    func reports(by reporterId: String, before position: Int64?, limit: Int) async throws -> Slice<Report>
    /// Reports in `status`, oldest first (the queue is worked from its oldest).
    func reports(status: ReportStatus, after position: Int64?, limit: Int) async throws -> Slice<StoredReport>
    /// What moderators did about the report, oldest first.
    func moderationRecords(reportId: String) async throws -> [StoredModeration]
    /// The message and up to `count` messages on either side of it in its conversation, oldest first.
    func messages(around messageId: String, count: Int) async throws -> [Message]

    // MARK: The account

    /// Reviews the user wrote, newest first.
    func reviews(authorId: String, before position: Int64?, limit: Int) async throws -> Slice<Review>
    /// Erases the account in one transaction: every session revoked (and announced), the user's
    /// listings with their photos and saves, their saves and blocks, notifications and
    /// idempotency keys deleted, their open offers withdrawn and the open offers on their
    /// listings declined; the row keeps only the id, the username (never given again) and the
    /// creation time. On SQLite no byte of what was erased stays in the file.
    func eraseAccount(userId: String, now: Date) async throws

    // MARK: Products

    /// Lists a product for sale.
    func createProduct(_ product: Product) async throws
    /// The product with this id, or `nil`.
    func product(id: String) async throws -> Product?
    /// The product with this id as stored (its buyer and version), or `nil`.
    func productRecord(id: String) async throws -> ProductRecord?
    /// Whether `userId` and `otherUserId` have a conversation about product `productId`.
    func hasConversation(about productId: String, between userId: String, and otherUserId: String) async throws
        -> Bool
    /// Up to `scan.limit` products of one ordered, filtered run (see ``products(_:)`` for pages).
    func scanProducts(_ scan: ProductScan) async throws -> [ScannedProduct]
    /// Adds a photo as the last of a product `sellerId` sells.
    func addProductPhoto(productId: String, sellerId: String, photo: NewProductPhoto) async throws -> ProductPhotoChange
    /// Removes a photo from a product `sellerId` sells.
    func removeProductPhoto(productId: String, sellerId: String, photoId: String) async throws -> ProductPhotoChange
    /// Puts the photos of a product `sellerId` sells in `order` (each of its photo ids once).
    func reorderProductPhotos(productId: String, sellerId: String, order: [String]) async throws -> ProductPhotoChange
    /// One size of one photo of a product, or `nil` (an upload from before sizes serves as every
    /// size until it is rebuilt).
    func productPhoto(productId: String, photoId: String, size: PhotoSize) async throws -> StoredPhoto?

    // MARK: Chat photos

    /// Stores a chat photo uploaded to a conversation, unless its uploader holds too many unsent
    /// ones or past their allowance (checked with the insert, in one transaction).
    func addAttachment(_ attachment: NewAttachment) async throws -> AttachmentUpload
    /// The chat photos with these ids that exist, in no particular order.
    func attachments(ids: [String]) async throws -> [AttachmentRecord]
    /// One size of a chat photo of conversation `conversationId`, for `viewerId`: `nil` unless
    /// the viewer is a member and the photo was sent in a message not removed since, or the
    /// viewer uploaded it.
    func attachmentPhoto(conversationId: String, attachmentId: String, viewerId: String, size: PhotoSize)
        async throws -> StoredPhoto?

    // MARK: Photos from before sizes

    /// Up to `limit` photos uploaded before sizes existed, ordered by ``UnsizedPhoto/Owner/photoId``,
    /// starting after `after` (`nil`: from the first).
    func unsizedPhotos(after: String?, limit: Int) async throws -> [UnsizedPhoto]
    /// In one transaction: stores `sizes` for the unsized photo of `owner`, records its
    /// dimensions where its product or user shows them, and empties the upload. False when the
    /// photo is gone or already has sizes (nothing is written).
    func storeSizes(_ sizes: PhotoSizes, of owner: UnsizedPhoto.Owner) async throws -> Bool

    // MARK: Conversations and messages

    /// Finds the conversation for the unordered pair and product, or creates it.
    func openConversation(between userId: String, and otherUserId: String, productId: String?, newId: String, now: Date)
        async throws -> (conversation: Conversation, created: Bool)
    /// The conversation as `viewerId` sees it, or `nil` when missing or not theirs.
    func conversation(id: String, viewerId: String) async throws -> Conversation?
    /// The viewer's conversations, newest activity first.
    func conversations(viewerId: String, before position: ConversationPosition?, limit: Int) async throws -> (
        items: [Conversation], next: ConversationPosition?
    )
    /// Messages of a conversation the viewer is in, newest first; `nil` when not theirs.
    func messages(conversationId: String, viewerId: String, before position: Int64?, limit: Int) async throws -> Slice<
        Message
    >?
    /// The two members of a conversation, or `nil` when it does not exist.
    func conversationMembers(id: String) async throws -> ConversationMembers?
    /// The message with this id, or `nil`.
    func message(id: String) async throws -> Message?
    /// Marks messages up to `messageId` read for the viewer; `nil` when the conversation is not theirs.
    func markRead(conversationId: String, viewerId: String, upTo messageId: String, now: Date) async throws
        -> MarkReadOutcome?

    // MARK: Favourites

    /// Who saved the product.
    func favouriteUserIds(productId: String) async throws -> [String]
    /// The products a user saved, most recently saved first, any status.
    func favourites(userId: String, before position: Int64?, limit: Int) async throws -> Slice<Product>

    // MARK: Reviews

    /// The reviews of a product (at most two: one by each party of its sale).
    func reviews(productId: String) async throws -> [Review]
    /// The reviews a user received, newest first.
    func reviews(subjectId: String, before position: Int64?, limit: Int) async throws -> Slice<Review>

    // MARK: Offers

    /// The offer with this id, or `nil`.
    func offer(id: String) async throws -> Offer?
    /// The open offers on a product, oldest first.
    func openOffers(productId: String) async throws -> [Offer]
    /// A conversation's offers, newest first (the caller checks the viewer is a member).
    func offers(conversationId: String, before position: Int64?, limit: Int) async throws -> Slice<Offer>
    /// What the request with this idempotency key made (the id it was claimed for), or `nil`
    /// while the key is unused.
    func idempotencyResult(owner: String, key: String) async throws -> String?

    // MARK: Rules' writes

    /// Applies the writes of one rule in one transaction; see ``WritePlan``.
    func apply(_ plan: WritePlan, now: Date) async throws -> PlanOutcome

    // MARK: Notifications

    /// The user's notifications, newest first.
    func notifications(userId: String, before position: Int64?, limit: Int) async throws -> Slice<
        BazaarAPI.Notification
    >
    /// Marks the given notifications (or all when `ids` is `nil`) of the user read.
    func markNotificationsRead(userId: String, ids: [String]?) async throws

    // MARK: Health

    /// Returns when the database answers a trivial query; throws ``StoreError/unavailable(_:)`` when not.
    func checkHealth() async throws
    /// Deletes what ``RetentionPolicy`` no longer keeps (rows older than `cutoffs`), in one
    /// transaction, and says how many rows of each kind went.
    func prune(_ cutoffs: RetentionCutoffs) async throws -> PruneCounts
}
