import Foundation

/// How long the server keeps rows that only serve a purpose for a while: the stated periods of
/// README's "Security" section, applied by ``BazaarStore/prune(_:)`` on both engines.
public struct RetentionPolicy: Sendable, Equatable {
    /// Idempotency keys: a client re-sending a message with its key after this gets a new message.
    public var idempotencyKeys: Duration
    /// Spent refresh tokens: presenting one spent longer ago is refused as invalid (no longer
    /// detected as reuse). Expired tokens, spent or not, go as soon as they expire.
    public var spentRefreshTokens: Duration
    /// Sessions revoked this long ago, and sessions with no refresh token left that began this
    /// long ago (every token expired: nothing can use them again).
    public var endedSessions: Duration
    /// Notifications, read or not.
    public var notifications: Duration
    /// Chat photos uploaded and never sent (a message sends them within moments of their upload;
    /// one left this long was given up).
    public var unsentAttachments: Duration

    /// The periods: 7 days for idempotency keys and spent refresh tokens, 30 for ended sessions,
    /// 90 for notifications, 1 for chat photos never sent.
    public init(
        idempotencyKeys: Duration = .days(7), spentRefreshTokens: Duration = .days(7),
        endedSessions: Duration = .days(30), notifications: Duration = .days(90), unsentAttachments: Duration = .days(1)
    ) {
        self.idempotencyKeys = idempotencyKeys
        self.spentRefreshTokens = spentRefreshTokens
        self.endedSessions = endedSessions
        self.notifications = notifications
        self.unsentAttachments = unsentAttachments
    }

    /// The cutoffs at `now`, in the milliseconds the stores keep: rows older than each go.
    public func cutoffs(at now: Date) -> RetentionCutoffs {
        func before(_ period: Duration) -> Int64 { StoredValues.millis(now.addingTimeInterval(-period.timeInterval)) }
        return RetentionCutoffs(
            now: StoredValues.millis(now), idempotencyKeys: before(idempotencyKeys),
            spentRefreshTokens: before(spentRefreshTokens), endedSessions: before(endedSessions),
            notifications: before(notifications), unsentAttachments: before(unsentAttachments))
    }
}

/// The moments before which rows go (milliseconds since 1970), computed once by
/// ``RetentionPolicy/cutoffs(at:)`` for both engines.
public struct RetentionCutoffs: Sendable, Equatable {
    /// Now: refresh tokens that expired before it go.
    public let now: Int64
    public let idempotencyKeys: Int64
    public let spentRefreshTokens: Int64
    public let endedSessions: Int64
    public let notifications: Int64
    public let unsentAttachments: Int64
}

/// How many rows one prune deleted.
public struct PruneCounts: Sendable, Equatable {
    public var idempotencyKeys = 0
    public var refreshTokens = 0
    public var sessions = 0
    public var notifications = 0
    public var attachments = 0

    public init(
        idempotencyKeys: Int = 0, refreshTokens: Int = 0, sessions: Int = 0, notifications: Int = 0,
        attachments: Int = 0
    ) {
        self.idempotencyKeys = idempotencyKeys
        self.refreshTokens = refreshTokens
        self.sessions = sessions
        self.notifications = notifications
        self.attachments = attachments
    }

    /// Every row deleted.
    public var total: Int { idempotencyKeys + refreshTokens + sessions + notifications + attachments }
}

extension Duration {
    /// `count` days of 24 hours.
    public static func days(_ count: Int) -> Duration { .seconds(count * 24 * 3600) }
}
