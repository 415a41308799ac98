import BazaarAPI
import Foundation

/// What a report is about, as a screen names it: its kind and id.
public struct ReportSubject: Sendable, Equatable, Hashable {
    /// A person, a listing or a message.
    public var type: ReportSubjectType
    /// Its id.
    public var id: String

    /// Makes a subject.
    public init(_ type: ReportSubjectType, id: String) {
        self.type = type
        self.id = id
    }
}

/// The report form as typed: the reason (its raw value, as chosen) and the note.
public struct ReportDraft: Sendable, Equatable {
    /// One of `ReportReason`'s raw values, or empty before one is chosen.
    public var reason: String
    /// What the reporter adds, 0 to 1000 characters.
    public var note: String

    /// Makes a draft.
    public init(reason: String = "", note: String = "") {
        self.reason = reason
        self.note = note
    }
}

/// A field of the report form, for errors shown beside it.
public enum ReportField: String, Sendable, Equatable, Hashable, CaseIterable {
    /// The reason.
    case reason
    /// The note.
    case note
}

/// What the report form shows: the draft with an error beside each field that breaks a rule, or
/// the report once made.
public struct ReportFormContent: Sendable, Equatable {
    /// What is reported.
    public var subject: ReportSubject
    /// What is in the form.
    public var draft: ReportDraft
    /// A sentence for each field that breaks a rule.
    public var fieldErrors: [ReportField: String]
    /// The report as the moderators got it, once made (an open report of the same subject by
    /// the same person is that one).
    public var made: Report?

    /// Makes content.
    public init(
        subject: ReportSubject, draft: ReportDraft = ReportDraft(), fieldErrors: [ReportField: String] = [:],
        made: Report? = nil
    ) {
        self.subject = subject
        self.draft = draft
        self.fieldErrors = fieldErrors
        self.made = made
    }

    /// The reasons a reporter chooses from, with their words.
    public static let reasons: [(reason: ReportReason, label: String)] = [
        (.spam, "Spam"), (.scam, "Scam or fraud"), (.offensive, "Offensive or abusive"),
        (.prohibited, "Something that may not be sold"), (.other, "Something else"),
    ]
}

/// What a member can do on the report form.
public enum ReportFormAction: Sendable, Equatable {
    /// Sends the report the draft describes (or shows why not, beside the fields).
    case submit(ReportDraft)
}

/// Reporting a person, a listing or a message to the moderators.
public protocol ReportFormLogic: LogicController
where Action == ReportFormAction, State == ScreenState<ReportFormContent> {}

/// What the moderators' queue shows: the reports in one status, oldest first.
public struct ModerationQueueContent: Sendable, Equatable {
    /// Which reports.
    public var status: ReportStatus
    /// The reports loaded so far.
    public var reports: [Report]
    /// Whether a ``ModerationQueueAction/loadMore`` can add more.
    public var hasMore: Bool

    /// Makes content.
    public init(status: ReportStatus, reports: [Report], hasMore: Bool) {
        self.status = status
        self.reports = reports
        self.hasMore = hasMore
    }

    /// A report as one line of the queue: "Message reported for scam, 2026-11-26".
    public static func summary(of report: Report) -> String {
        let label = ReportFormContent.reasons.first { $0.reason == report.reason }?.label ?? report.reason.rawValue
        return "\(report.subjectType.rawValue.capitalized) reported: \(label)"
    }
}

/// What a moderator can do on the queue.
public enum ModerationQueueAction: Sendable, Equatable {
    /// Loads the first page.
    case load
    /// Adds the next page.
    case loadMore
}

/// The moderators' queue; for anyone else it does not exist (a not-found failure).
public protocol ModerationQueueLogic: LogicController
where Action == ModerationQueueAction, State == ScreenState<ModerationQueueContent> {}

/// What a moderator reads of one report, and what they did about it.
public struct ModerationReportContent: Sendable, Equatable {
    /// The report with its subject in context.
    public var item: ModerationItem
    /// A sentence beside the note, when it was refused.
    public var noteError: String?

    /// Makes content.
    public init(item: ModerationItem, noteError: String? = nil) {
        self.item = item
        self.noteError = noteError
    }

    /// The actions that fit the report's subject while it is open (none once resolved).
    public var actions: [ModerationAction] {
        guard item.report.status == .open else { return [] }
        switch item.report.subjectType {
        case .user: return [.dismiss, .suspendUser]
        case .product: return [.dismiss, .removeProduct, .suspendUser]
        case .message: return [.dismiss, .removeMessage, .suspendUser]
        }
    }

    /// An action as a button says it.
    public static func label(of action: ModerationAction) -> String {
        switch action {
        case .dismiss: "Dismiss"
        case .removeProduct: "Remove the listing"
        case .removeMessage: "Remove the message"
        case .suspendUser: "Suspend the user"
        }
    }
}

/// What a moderator can do with one report.
public enum ModerationReportAction: Sendable, Equatable {
    /// Loads the report in context.
    case load
    /// Resolves it with `action`, saying why in `note`.
    case resolve(ModerationAction, note: String)
}

/// One report, read and acted on by a moderator.
public protocol ModerationReportLogic: LogicController
where Action == ModerationReportAction, State == ScreenState<ModerationReportContent> {}

/// The report form as a screen.
public typealias ReportFormScreen = Screen<any ReportFormLogic>
/// The moderators' queue as a screen.
public typealias ModerationQueueScreen = Screen<any ModerationQueueLogic>
/// One report as a moderator's screen.
public typealias ModerationReportScreen = Screen<any ModerationReportLogic>

/// The moderation feature's public face; the app resolves it from ``Dependencies``.
public protocol ModerationModuleProtocol: Sendable {
    /// The form to report `subject`.
    func reportFormScreen(subject: ReportSubject) -> ReportFormScreen
    /// The moderators' queue of reports in `status`.
    func queueScreen(status: ReportStatus) -> ModerationQueueScreen
    /// One report, for a moderator to read and act on.
    func reportScreen(reportID: String) -> ModerationReportScreen
}
