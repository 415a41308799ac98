import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// Reporting something: reads the draft (a reason chosen, a note within the limit), shows each
/// broken rule beside its field, and sends the report. What may be reported (what the person can
/// see, not their own) is the server's rule; its refusal is shown as the failure.
public actor ReportFormLogicController: ReportFormLogic {
    private let session: UserSession
    private let subject: ReportSubject
    private let broadcast: StateBroadcast<ScreenState<ReportFormContent>>

    /// Makes the form to report `subject` as `session`'s user.
    public init(session: UserSession, subject: ReportSubject) {
        self.session = session
        self.subject = subject
        broadcast = StateBroadcast(.presenting(ReportFormContent(subject: subject)))
    }

    /// The form's states from now on (an empty form first).
    public func states() -> AsyncStream<ScreenState<ReportFormContent>> { broadcast.subscribe(keeping: self) }

    /// Sends the report, or shows the form again with the errors beside their fields.
    @discardableResult
    public func send(_ action: ReportFormAction) async -> ScreenState<ReportFormContent> {
        switch action {
        case .submit(let draft): broadcast.publish(await submit(draft))
        }
    }

    private func submit(_ draft: ReportDraft) async -> ScreenState<ReportFormContent> {
        var errors: [ReportField: String] = [:]
        let reason = ReportReason(rawValue: draft.reason)
        if reason == nil { errors[.reason] = "Choose why you report it: spam, scam, offensive, prohibited or other." }
        let note = draft.note.trimmingCharacters(in: .whitespacesAndNewlines)
        if !InputRules.fits(note, InputRules.reportNote) {
            errors[.note] = "Keep it to \(InputRules.reportNote.upperBound) characters."
        }
        guard errors.isEmpty, let reason else {
            return .presenting(ReportFormContent(subject: subject, draft: draft, fieldErrors: errors))
        }
        do throws(NetworkError) {
            let report = try await session.network.request(
                BazaarEndpoints.report(
                    CreateReportRequest(
                        subjectType: subject.type, subjectId: subject.id, reason: reason,
                        note: note.isEmpty ? nil : note)))
            return .presenting(ReportFormContent(subject: subject, draft: draft, made: report))
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
