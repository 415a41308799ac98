import BazaarAPI
import Dependencies
import Networking
import Session

/// The moderators' queue: the reports in one status, oldest first, a page at a time.
public actor ModerationQueueLogicController: ModerationQueueLogic {
    private let session: UserSession
    private let status: ReportStatus
    private let pageSize: Int
    private let broadcast = StateBroadcast<ScreenState<ModerationQueueContent>>(.loading)
    private var list = PagedItems<Report>()

    /// Makes the queue of reports in `status` for `session`'s user.
    public init(session: UserSession, status: ReportStatus, pageSize: Int = 20) {
        self.session = session
        self.status = status
        self.pageSize = pageSize
    }

    /// The screen's states from now on.
    public func states() -> AsyncStream<ScreenState<ModerationQueueContent>> { broadcast.subscribe(keeping: self) }

    /// Loads a page.
    @discardableResult
    public func send(_ action: ModerationQueueAction) async -> ScreenState<ModerationQueueContent> {
        do throws(NetworkError) {
            switch action {
            case .load:
                list = PagedItems()
                list.receive(
                    try await session.network.request(
                        BazaarEndpoints.moderationReports(status: status, limit: pageSize)), after: nil)
            case .loadMore:
                if let cursor = list.nextCursor {
                    list.receive(
                        try await session.network.request(
                            BazaarEndpoints.moderationReports(status: status, cursor: cursor, limit: pageSize)),
                        after: cursor)
                }
            }
            return broadcast.publish(
                .presenting(ModerationQueueContent(status: status, reports: list.items, hasMore: list.hasMore)))
        } catch {
            return broadcast.publish(.failed(ScreenError(error)))
        }
    }
}
