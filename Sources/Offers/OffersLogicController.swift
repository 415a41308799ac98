import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// The offers of one conversation: the newest page, making an offer, and deciding one. While the
/// screen is watched it follows the conversation's `offer.updated` events (an offer the other
/// member made or decided is in the states at once) and catches up after every reconnection.
///
/// After each change it reads the conversation and the newest offers again rather than patching
/// what it holds: an accept also reserves the product and declines the other offers, and the
/// server is the one place that decides those.
public actor OffersLogicController: OffersLogic {
    private let network: AuthenticatedNetworkController
    private let connection: (any LiveEventSource)?
    private let conversationID: String
    private let viewerID: String
    private let pageSize: Int
    private let newKey: @Sendable () -> String
    private let broadcast = StateBroadcast<ScreenState<OffersContent>>(.loading)
    private var conversation: Conversation?
    private var list = PagedItems<Offer>()

    /// Makes the logic for the conversation with id `conversationID` as `viewerID` sees it,
    /// following it on `connection`; `newKey` makes the idempotency key of each new offer (the one
    /// key every retry of that offer carries).
    public init(
        network: AuthenticatedNetworkController, connection: (any LiveEventSource)? = nil, conversationID: String,
        viewerID: String, pageSize: Int = 20, newKey: @escaping @Sendable () -> String = { UUID().uuidString }
    ) {
        self.network = network
        self.connection = connection
        self.conversationID = conversationID
        self.viewerID = viewerID
        self.pageSize = pageSize
        self.newKey = newKey
        broadcast.whileWatched { [weak self] in await self?.follow() }
    }

    /// The screen's states from now on; while iterated, the conversation's offers are followed live.
    public func states() -> AsyncStream<ScreenState<OffersContent>> { broadcast.subscribe(keeping: self) }

    /// Performs `action` and publishes the state it leads to.
    @discardableResult
    public func send(_ action: OffersAction) async -> ScreenState<OffersContent> {
        switch action {
        case .load:
            return broadcast.publish(await reload())
        case .loadMore:
            guard let cursor = list.nextCursor else { return broadcast.publish(present()) }
            do throws(NetworkError) {
                list.receive(
                    try await network.request(
                        BazaarEndpoints.offers(conversationID: conversationID, cursor: cursor, limit: pageSize)),
                    after: cursor)
                return broadcast.publish(present())
            } catch {
                return broadcast.publish(.failed(ScreenError(error)))
            }
        case .make(let amountCents):
            return broadcast.publish(
                await change(
                    BazaarEndpoints.makeOffer(
                        conversationID: conversationID, amountCents: amountCents, idempotencyKey: newKey())))
        case .decide(let decision, let offerID):
            let endpoint =
                switch decision {
                case .accept: BazaarEndpoints.acceptOffer(id: offerID)
                case .decline: BazaarEndpoints.declineOffer(id: offerID)
                case .withdraw: BazaarEndpoints.withdrawOffer(id: offerID)
                }
            return broadcast.publish(await change(endpoint))
        }
    }

    /// Sends one change, then reads what it left.
    private func change(_ endpoint: AuthenticatedEndpoint<Offer>) async -> ScreenState<OffersContent> {
        do throws(NetworkError) {
            _ = try await network.request(endpoint)
        } catch {
            return .failed(ScreenError(error))
        }
        return await reload()
    }

    /// The conversation (its product as it is now) and the newest page of offers.
    private func reload() async -> ScreenState<OffersContent> {
        do throws(NetworkError) {
            conversation = try await network.request(BazaarEndpoints.conversation(id: conversationID))
            list.receive(
                try await network.request(BazaarEndpoints.offers(conversationID: conversationID, limit: pageSize)),
                after: nil)
            return present()
        } catch {
            return .failed(ScreenError(error))
        }
    }

    /// Reads again on every reconnection and every event about this conversation's offers, until
    /// the last watcher leaves.
    private func follow() async {
        guard let connection else { return }
        for await event in await connection.subscribe() {
            switch event {
            case .connected where conversation != nil:
                broadcast.publish(await reload())
            case .event(.offerUpdated(let offer)) where offer.conversationId == conversationID:
                broadcast.publish(await reload())
            case .connected, .event, .disconnected:
                continue
            }
        }
    }

    private func present() -> ScreenState<OffersContent> {
        guard let conversation else { return .loading }
        return .presenting(
            OffersContent(conversation: conversation, viewerID: viewerID, offers: list.items, hasMore: list.hasMore))
    }
}
