import Foundation

/// A member's report of something on Bazaar (a person, a listing or a message) for a moderator
/// to act on.
///
/// The reporter sees their own report and learns its outcome (a notification when it is
/// resolved); only moderators read the queue.
public struct Report: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier.
    public var id: String
    /// What kind of thing is reported.
    public var subjectType: ReportSubjectType
    /// The id of the user, product or message reported.
    public var subjectId: String
    /// Why.
    public var reason: ReportReason
    /// What the reporter added (at most 1000 characters), or `nil`.
    public var note: String?
    /// Open until a moderator acts on it.
    public var status: ReportStatus
    /// What the moderator did, once resolved; `nil` while open.
    public var action: ModerationAction?
    /// When it was made.
    public var createdAt: Date
    /// When a moderator resolved it, or `nil` while open.
    public var resolvedAt: Date?

    /// Creates a report value.
    public init(
        id: String, subjectType: ReportSubjectType, subjectId: String, reason: ReportReason, note: String?,
        status: ReportStatus, action: ModerationAction?, createdAt: Date, resolvedAt: Date? = nil
    ) {
        self.id = id
        self.subjectType = subjectType
        self.subjectId = subjectId
        self.reason = reason
        self.note = note
        self.status = status
        self.action = action
        self.createdAt = createdAt
        self.resolvedAt = resolvedAt
    }

    /// Encodes every field, writing `null` for a missing note, action or resolution time (the
    /// contract lists them).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(subjectType, forKey: .subjectType)
        try container.encode(subjectId, forKey: .subjectId)
        try container.encode(reason, forKey: .reason)
        try container.encode(note, forKey: .note)
        try container.encode(status, forKey: .status)
        try container.encode(action, forKey: .action)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(resolvedAt, forKey: .resolvedAt)
    }
}

/// What a report is about.
public enum ReportSubjectType: String, Codable, Sendable, Hashable, CaseIterable {
    /// A person (their profile).
    case user
    /// A listing.
    case product
    /// One message of a conversation the reporter is in.
    case message
}

/// Why something is reported.
public enum ReportReason: String, Codable, Sendable, Hashable, CaseIterable {
    /// Unwanted advertising or repeated messages.
    case spam
    /// An attempt to cheat someone.
    case scam
    /// Abuse, harassment or hate.
    case offensive
    /// Something that may not be sold.
    case prohibited
    /// Anything else (say what in the note).
    case other
}

/// Whether a moderator has acted on a report.
public enum ReportStatus: String, Codable, Sendable, Hashable, CaseIterable {
    /// Waiting in the queue.
    case open
    /// A moderator acted (see the report's `action`).
    case resolved
}

/// What a moderator did about a report.
public enum ModerationAction: String, Codable, Sendable, Hashable, CaseIterable {
    /// Nothing was wrong.
    case dismiss
    /// The reported listing is taken down (deleted).
    case removeProduct = "remove_product"
    /// The reported message's text is replaced for both members.
    case removeMessage = "remove_message"
    /// The reported person (or the seller of the listing, or the sender of the message) is
    /// suspended: signed out everywhere, their listings hidden, their sign-ins refused.
    case suspendUser = "suspend_user"
}

/// The body of `POST /v1/reports`.
public struct CreateReportRequest: Codable, Sendable, Equatable {
    /// What kind of thing is reported.
    public var subjectType: ReportSubjectType
    /// Its id.
    public var subjectId: String
    /// Why.
    public var reason: ReportReason
    /// At most 1000 characters.
    public var note: String?

    /// Makes a report request.
    public init(subjectType: ReportSubjectType, subjectId: String, reason: ReportReason, note: String? = nil) {
        self.subjectType = subjectType
        self.subjectId = subjectId
        self.reason = reason
        self.note = note
    }
}

/// The body of `POST /v1/moderation/reports/{id}/resolve`.
public struct ResolveReportRequest: Codable, Sendable, Equatable {
    /// What the moderator does.
    public var action: ModerationAction
    /// Why (at most 1000 characters), kept with the action.
    public var note: String?

    /// Makes a resolution.
    public init(action: ModerationAction, note: String? = nil) {
        self.action = action
        self.note = note
    }
}

/// A report as a moderator reads it: the report, who made it, and its subject in context.
public struct ModerationItem: Codable, Sendable, Equatable, Hashable {
    /// The report.
    public var report: Report
    /// Who reported it.
    public var reporter: User
    /// The person the report is against: the reported user, the seller of the reported
    /// listing, or the sender of the reported message.
    public var subjectUser: User
    /// The reported listing, when the subject is one (and it still exists).
    public var product: Product?
    /// For a reported message: it and up to five messages on either side of it, oldest first.
    public var messages: [Message]?
    /// Who acted on it and why, once resolved.
    public var resolution: ModerationRecord?

    /// Creates a moderation item.
    public init(
        report: Report, reporter: User, subjectUser: User, product: Product? = nil, messages: [Message]? = nil,
        resolution: ModerationRecord? = nil
    ) {
        self.report = report
        self.reporter = reporter
        self.subjectUser = subjectUser
        self.product = product
        self.messages = messages
        self.resolution = resolution
    }
}

/// One moderator's action, as recorded: who, when, what and why.
public struct ModerationRecord: Codable, Sendable, Equatable, Hashable {
    /// The moderator.
    public var moderatorId: String
    /// What they did.
    public var action: ModerationAction
    /// Why, as they wrote it.
    public var note: String?
    /// When.
    public var createdAt: Date

    /// Creates a record.
    public init(moderatorId: String, action: ModerationAction, note: String?, createdAt: Date) {
        self.moderatorId = moderatorId
        self.action = action
        self.note = note
        self.createdAt = createdAt
    }
}
