import BazaarAPI
import Dependencies
import Networking
import Session

/// The signed-in user's saved products: pages, and saving or removing one. An actor: it keeps what
/// it loaded, so a removal updates the list in place and a save reloads its first page (the saved
/// product first, with its count as it is now).
public actor FavouritesLogicController: FavouritesLogic {
    private let network: AuthenticatedNetworkController
    private let pageSize: Int
    private let broadcast = StateBroadcast<ScreenState<FavouritesContent>>(.loading)
    private var list = PagedItems<Product>()

    /// Makes the logic over the user's controller.
    public init(network: AuthenticatedNetworkController, pageSize: Int = 20) {
        self.network = network
        self.pageSize = pageSize
    }

    /// The screen's states from now on.
    public func states() -> AsyncStream<ScreenState<FavouritesContent>> { broadcast.subscribe(keeping: self) }

    /// Loads, pages, saves or removes, and publishes the result.
    @discardableResult
    public func send(_ action: FavouritesAction) async -> ScreenState<FavouritesContent> {
        switch action {
        case .load:
            return broadcast.publish(await fetch(cursor: nil))
        case .loadMore:
            guard let cursor = list.nextCursor else { return broadcast.publish(present()) }
            return broadcast.publish(await fetch(cursor: cursor))
        case .save(let productId):
            do throws(NetworkError) {
                _ = try await network.request(BazaarEndpoints.saveFavourite(productId: productId))
            } catch {
                return broadcast.publish(.failed(ScreenError(error)))
            }
            return broadcast.publish(await fetch(cursor: nil))
        case .remove(let productId):
            do throws(NetworkError) {
                _ = try await network.request(BazaarEndpoints.removeFavourite(productId: productId))
            } catch {
                return broadcast.publish(.failed(ScreenError(error)))
            }
            list.remove { $0.id == productId }
            return broadcast.publish(present())
        }
    }

    private func present() -> ScreenState<FavouritesContent> {
        .presenting(FavouritesContent(products: list.items, hasMore: list.hasMore))
    }

    private func fetch(cursor: String?) async -> ScreenState<FavouritesContent> {
        do throws(NetworkError) {
            list.receive(
                try await network.request(BazaarEndpoints.favourites(cursor: cursor, limit: pageSize)), after: cursor)
            return present()
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
