import BazaarAPI
import Foundation

/// One page read from storage: the items and the position to continue before, if there is more.
public struct Slice<Item: Sendable>: Sendable {
    /// The items, in list order.
    public var items: [Item]
    /// The position of the last item, when more items follow it.
    public var next: Int64?

    /// Creates a slice.
    public init(items: [Item], next: Int64?) {
        self.items = items
        self.next = next
    }

    /// A page from rows fetched with `LIMIT limit + 1`, one more than asked so the page knows
    /// whether more follow: the first `limit` rows as items, and, when the extra row came, the
    /// position of the last one kept as ``next``. Both engines' keyset pages are made here.
    package init<Row>(
        fetched rows: [Row], limit: Int, item: (Row) throws -> Item, position: (Row) throws -> Int64
    ) rethrows {
        let page = rows.prefix(limit)
        items = try page.map(item)
        next = try rows.count > limit ? page.last.map(position) : nil
    }
}

/// Where a conversation list page ends: the last conversation's activity time and id.
public struct ConversationPosition: Sendable, Equatable {
    /// Activity time in milliseconds since 1970.
    public var updatedAtMillis: Int64
    /// The conversation id, breaking ties.
    public var id: String

    /// Creates a position.
    public init(updatedAtMillis: Int64, id: String) {
        self.updatedAtMillis = updatedAtMillis
        self.id = id
    }
}

/// A user as stored, with the fields the wire never shows.
public struct UserRecord: Sendable, Equatable {
    /// The public view of the user.
    public var user: User
    /// The bcrypt hash of the password.
    public var passwordHash: String
    /// What they may do beyond a member, as the operator named it.
    public var role: UserRole
    /// When a moderator suspended them (they cannot sign in), or `nil`.
    public var suspendedAt: Date?
    /// When they deleted their account, or `nil`. A deleted account's ``user`` is
    /// ``User/deleted(id:createdAt:)``: nothing of the person is kept.
    public var deletedAt: Date?

    /// A record of `user` with their password hash, role and standing.
    public init(
        user: User, passwordHash: String, role: UserRole = .member, suspendedAt: Date? = nil, deletedAt: Date? = nil
    ) {
        self.user = user
        self.passwordHash = passwordHash
        self.role = role
        self.suspendedAt = suspendedAt
        self.deletedAt = deletedAt
    }

    /// The user as they see themselves (`GET /v1/users/me`, and the answer to signing in): their
    /// profile with their role, which nobody else's view of them carries.
    public var me: User {
        var me = user
        me.role = role
        return me
    }

    /// Whether the account still belongs to someone who may use it (neither suspended nor deleted).
    public var isActive: Bool { suspendedAt == nil && deletedAt == nil }

    /// A record as a store reads it from its columns: a deleted account shows only its id and
    /// creation time (``User/deleted(id:createdAt:)``), whatever the row still holds.
    public static func stored(
        _ user: User, passwordHash: String, role: UserRole, suspendedAt: Date?, deletedAt: Date?
    ) -> UserRecord {
        guard deletedAt != nil else {
            return UserRecord(
                user: user, passwordHash: passwordHash, role: role, suspendedAt: suspendedAt, deletedAt: nil)
        }
        return UserRecord(
            user: .deleted(id: user.id, createdAt: user.createdAt), passwordHash: "", role: .member,
            suspendedAt: suspendedAt, deletedAt: deletedAt)
    }
}

/// What a new account is made of.
public struct NewUser: Sendable {
    /// New opaque id.
    public var id: String
    /// Validated username.
    public var username: String
    /// Validated display name.
    public var displayName: String
    /// bcrypt hash of the password.
    public var passwordHash: String
    /// Creation time.
    public var createdAt: Date

    /// Creates a new-user value.
    public init(id: String, username: String, displayName: String, passwordHash: String, createdAt: Date) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}

/// How an update treats the bio.
public enum BioChange: Sendable, Equatable {
    /// Leave the bio as it is.
    case keep
    /// Remove the bio.
    case clear
    /// Set this bio.
    case set(String)
}

/// One size of a photo (or an upload from before sizes): its bytes, media type and content digest.
public struct StoredPhoto: Sendable, Equatable {
    /// `image/jpeg` or `image/webp` (`image/png` for an upload from before sizes).
    public var mediaType: String
    /// The image bytes.
    public var data: Data
    /// A hex digest of the bytes, used as ETag and as the photo URL's version.
    public var digest: String
    /// When it was uploaded.
    public var updatedAt: Date

    /// Creates a stored photo.
    public init(mediaType: String, data: Data, digest: String, updatedAt: Date) {
        self.mediaType = mediaType
        self.data = data
        self.digest = digest
        self.updatedAt = updatedAt
    }

    /// A photo of `data`, its digest made as the server makes it for an upload.
    public init(mediaType: String, data: Data, updatedAt: Date) {
        self.init(mediaType: mediaType, data: data, digest: Hex.sha256(data), updatedAt: updatedAt)
    }
}

/// What spending a refresh token did.
public enum RefreshOutcome: Sendable, Equatable {
    /// The token was valid; its successor is stored. Carries the user and session.
    case rotated(userId: String, sessionId: String)
    /// The token was spent moments ago and its successor is still unspent: the same successor
    /// is the answer again (its first answer was lost, most likely). Nothing was written.
    case replayed(userId: String, sessionId: String)
    /// The token had been spent before: the whole session is now revoked.
    case reused(sessionId: String)
    /// Unknown, expired or revoked.
    case invalid
}

/// What marking a conversation read did.
public enum MarkReadOutcome: Sendable, Equatable {
    /// Done; carries the other participant, who may want to know.
    case marked(otherUserId: String)
    /// The message is not in that conversation.
    case unknownMessage
}
