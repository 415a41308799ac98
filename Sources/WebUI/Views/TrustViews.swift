import BazaarAPI
import Dependencies
import Foundation

/// The report form: the reasons to choose from, the note, and the errors beside them; or the
/// thanks once the report is made.
struct ReportFormPageView: Sendable {
    struct Reason: Sendable {
        var value: String
        var label: String
        var checked: Bool
    }

    var title = "Report"
    var nav: NavigationView
    var type: String
    var id: String
    /// What is reported, in words ("a message", "a listing", "a person").
    var what: String
    var reasons: [Reason]
    var note: String
    var reasonError: String?
    var noteError: String?
    var made: Bool

    init(content: ReportFormContent, nav: NavigationView) {
        self.nav = nav
        type = content.subject.type.rawValue
        id = content.subject.id
        what =
            switch content.subject.type {
            case .user: "a person"
            case .product: "a listing"
            case .message: "a message"
            }
        reasons = ReportFormContent.reasons.map { reason in
            Reason(
                value: reason.reason.rawValue, label: reason.label,
                checked: reason.reason.rawValue == content.draft.reason)
        }
        note = content.draft.note
        reasonError = content.fieldErrors[.reason]
        noteError = content.fieldErrors[.note]
        made = content.made != nil
    }
}

/// The moderators' queue.
struct ModerationQueueView: Sendable {
    struct Item: Sendable {
        var id: String
        var summary: String
        var note: String?
        var date: String
        var isoDate: String
        var action: String?
    }

    var title = "Moderation"
    var nav: NavigationView
    var showingOpen: Bool
    var reports: [Item]
    var moreURL: String?

    init(content: ModerationQueueContent, nav: NavigationView) {
        self.nav = nav
        showingOpen = content.status == .open
        reports = content.reports.map { report in
            Item(
                id: report.id, summary: ModerationQueueContent.summary(of: report), note: report.note,
                date: WebFormats.time(report.createdAt), isoDate: WebFormats.iso(report.createdAt),
                action: report.action.map(ModerationReportContent.label(of:)))
        }
        moreURL = nil
    }
}

/// One report as a moderator reads it, with a form per action that fits.
struct ModerationReportView: Sendable {
    struct Line: Sendable {
        var who: String
        var body: String
        var reported: Bool
        var time: String
        var isoTime: String
    }

    struct Action: Sendable {
        var value: String
        var label: String
    }

    var title = "Report"
    var nav: NavigationView
    var id: String
    var summary: String
    var reporter: String
    var subject: String
    var subjectID: String
    var note: String?
    var product: Product?
    var productPrice: String?
    var lines: [Line]
    var hasLines: Bool
    var actions: [Action]
    var hasActions: Bool
    var noteError: String?
    var resolution: String?

    init(content: ModerationReportContent, nav: NavigationView) {
        let item = content.item
        self.nav = nav
        id = item.report.id
        summary = ModerationQueueContent.summary(of: item.report)
        reporter = "\(item.reporter.displayName) (@\(item.reporter.username))"
        subject = "\(item.subjectUser.displayName) (@\(item.subjectUser.username))"
        subjectID = item.subjectUser.id
        note = item.report.note
        product = item.product
        productPrice = item.product.map { WebFormats.price(cents: $0.priceCents, currency: $0.currency) }
        lines = (item.messages ?? []).map { message in
            Line(
                who: message.senderId == item.subjectUser.id ? item.subjectUser.displayName : item.reporter.displayName,
                body: message.body, reported: message.id == item.report.subjectId,
                time: WebFormats.time(message.createdAt), isoTime: WebFormats.iso(message.createdAt))
        }
        hasLines = !lines.isEmpty
        actions = content.actions.map { Action(value: $0.rawValue, label: ModerationReportContent.label(of: $0)) }
        hasActions = !actions.isEmpty
        noteError = content.noteError
        resolution = item.resolution.map { record in
            "\(ModerationReportContent.label(of: record.action)) on \(WebFormats.time(record.createdAt))"
                + (record.note.map { ": “\($0)”" } ?? ".")
        }
    }
}
