import BazaarAPI
import Dependencies
import Session

/// The moderation feature: the report form every member has, and the queue and report screens
/// moderators work in. Whether the person is a moderator is the server's to say (for anyone else
/// the queue is not found). It knows no other feature.
public struct ModerationModule: ModerationModuleProtocol {
    private let session: UserSession

    /// Makes the module for `session`'s user.
    public init(session: UserSession) {
        self.session = session
    }

    /// The form to report `subject`.
    public func reportFormScreen(subject: ReportSubject) -> ReportFormScreen {
        ReportFormScreen(title: "Report", logic: ReportFormLogicController(session: session, subject: subject))
    }

    /// The queue of reports in `status`.
    public func queueScreen(status: ReportStatus) -> ModerationQueueScreen {
        ModerationQueueScreen(
            title: "Moderation", logic: ModerationQueueLogicController(session: session, status: status))
    }

    /// One report in context.
    public func reportScreen(reportID: String) -> ModerationReportScreen {
        ModerationReportScreen(
            title: "Report", logic: ModerationReportLogicController(session: session, reportID: reportID))
    }
}
