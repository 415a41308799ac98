import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// One report as a moderator works on it: read with its subject in context, then resolved with an
/// action and the reason for it (kept with the action). Which actions fit is
/// ``ModerationReportContent/actions``; the server decides again.
public actor ModerationReportLogicController: ModerationReportLogic {
    private let session: UserSession
    private let reportID: String
    private let broadcast = StateBroadcast<ScreenState<ModerationReportContent>>(.loading)

    /// Makes the screen of the report with `reportID` for `session`'s user.
    public init(session: UserSession, reportID: String) {
        self.session = session
        self.reportID = reportID
    }

    /// The screen's states from now on.
    public func states() -> AsyncStream<ScreenState<ModerationReportContent>> { broadcast.subscribe(keeping: self) }

    /// Loads the report, or resolves it and loads it again as resolved.
    @discardableResult
    public func send(_ action: ModerationReportAction) async -> ScreenState<ModerationReportContent> {
        do throws(NetworkError) {
            if case .resolve(let decision, let note) = action {
                let note = note.trimmingCharacters(in: .whitespacesAndNewlines)
                guard InputRules.fits(note, InputRules.reportNote) else {
                    let item = try await session.network.request(BazaarEndpoints.moderationReport(id: reportID))
                    return broadcast.publish(
                        .presenting(
                            ModerationReportContent(
                                item: item, noteError: "Keep it to \(InputRules.reportNote.upperBound) characters.")))
                }
                _ = try await session.network.request(
                    BazaarEndpoints.resolveReport(
                        id: reportID, ResolveReportRequest(action: decision, note: note.isEmpty ? nil : note)))
            }
            let item = try await session.network.request(BazaarEndpoints.moderationReport(id: reportID))
            return broadcast.publish(.presenting(ModerationReportContent(item: item)))
        } catch {
            return broadcast.publish(.failed(ScreenError(error)))
        }
    }
}
