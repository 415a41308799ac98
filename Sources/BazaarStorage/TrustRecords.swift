import BazaarAPI
import Foundation

/// A report as stored: what the wire shows, and who it involves (never shown to the reporter).
public struct StoredReport: Sendable, Equatable {
    /// The report as its reporter and the moderators see it.
    public var report: Report
    /// Who made it.
    public var reporterId: String
    /// Whom it is against: the reported user, the seller of the listing, the sender of the message.
    public var subjectUserId: String

    /// A stored report.
    public init(report: Report, reporterId: String, subjectUserId: String) {
        self.report = report
        self.reporterId = reporterId
        self.subjectUserId = subjectUserId
    }
}

/// A moderator's action with what it was taken on: one row of the moderation record.
public struct StoredModeration: Sendable, Equatable {
    /// Opaque id of the record.
    public var id: String
    /// The report that was resolved.
    public var reportId: String
    /// What was reported.
    public var subjectType: ReportSubjectType
    /// Its id.
    public var subjectId: String
    /// Who did what, when and why.
    public var record: ModerationRecord

    /// A record of a moderator's action.
    public init(
        id: String, reportId: String, subjectType: ReportSubjectType, subjectId: String, record: ModerationRecord
    ) {
        self.id = id
        self.reportId = reportId
        self.subjectType = subjectType
        self.subjectId = subjectId
        self.record = record
    }
}

/// One session as stored: whose it is, when it began and was last used, what it signed in with.
public struct SessionRecord: Sendable, Equatable {
    /// The session's id.
    public var id: String
    /// Whose it is.
    public var userId: String
    /// When it signed in.
    public var createdAt: Date
    /// When it last signed in or refreshed.
    public var lastUsedAt: Date
    /// The `User-Agent` it signed in with, or `nil`.
    public var userAgent: String?
    /// When it was revoked, or `nil` while it is signed in.
    public var revokedAt: Date?

    /// A session record.
    public init(
        id: String, userId: String, createdAt: Date, lastUsedAt: Date, userAgent: String?, revokedAt: Date?
    ) {
        self.id = id
        self.userId = userId
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.userAgent = userAgent
        self.revokedAt = revokedAt
    }
}
