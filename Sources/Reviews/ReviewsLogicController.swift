import BazaarAPI
import Dependencies
import Networking
import Session

/// A person's reviews: their profile (with the rating the server keeps) and the reviews they
/// received, a page at a time, each with its author's profile, looked up once per author.
public actor ReviewsLogicController: ReviewsLogic {
    private let network: NonAuthenticatedNetworkController
    private let userID: String
    private let pageSize: Int
    private let broadcast = StateBroadcast<ScreenState<ReviewsContent>>(.loading)
    private var user: User?
    private var list = PagedItems<Review>()
    /// Authors looked up so far (`nil`: their profile could not be read).
    private var authors: [String: User?] = [:]

    /// Makes the logic for the user with `userID`.
    public init(network: NonAuthenticatedNetworkController, userID: String, pageSize: Int = 20) {
        self.network = network
        self.userID = userID
        self.pageSize = pageSize
    }

    /// The screen's states from now on.
    public func states() -> AsyncStream<ScreenState<ReviewsContent>> { broadcast.subscribe(keeping: self) }

    /// Loads the person and a page of reviews.
    @discardableResult
    public func send(_ action: ReviewsAction) async -> ScreenState<ReviewsContent> {
        do throws(NetworkError) {
            switch action {
            case .load:
                user = try await network.request(BazaarEndpoints.user(id: userID))
                list.receive(
                    try await network.request(BazaarEndpoints.reviews(userId: userID, limit: pageSize)), after: nil)
            case .loadMore:
                guard let cursor = list.nextCursor else { return broadcast.publish(await present()) }
                list.receive(
                    try await network.request(BazaarEndpoints.reviews(userId: userID, cursor: cursor, limit: pageSize)),
                    after: cursor)
            }
            return broadcast.publish(await present())
        } catch {
            return broadcast.publish(.failed(ScreenError(error)))
        }
    }

    private func present() async -> ScreenState<ReviewsContent> {
        guard let user else { return .loading }
        var lines: [ReviewLine] = []
        for review in list.items {
            lines.append(ReviewLine(review: review, author: await author(of: review)))
        }
        return .presenting(ReviewsContent(user: user, reviews: lines, hasMore: list.hasMore))
    }

    /// The author's profile, read once. A review's author had an account, so a profile that is
    /// not found is one deleted since: remembered as the deleted user it now is (the server shows
    /// no more of it; its creation time is unknown here, and the review's stands in, shown
    /// nowhere). A network failure is not remembered: the next page asks again.
    private func author(of review: Review) async -> User? {
        let id = review.authorId
        if let known = authors[id] { return known }
        do throws(NetworkError) {
            let author = try await network.request(BazaarEndpoints.user(id: id))
            authors[id] = author
            return author
        } catch {
            guard error.statusCode == 404 else { return nil }
            let gone = User.deleted(id: id, createdAt: review.createdAt)
            authors[id] = gone
            return gone
        }
    }
}
