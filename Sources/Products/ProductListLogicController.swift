import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// Browsing and searching products (text, price range, seller, order) a page at a time. An actor: it remembers the pages loaded so far.
public actor ProductListLogicController: ProductListLogic {
    private let network: NonAuthenticatedNetworkController
    private let pageSize: Int
    private let broadcast = StateBroadcast<ScreenState<ProductListContent>>(.loading)
    private var list = PagedItems<Product>()
    private var currentSearch = ProductSearch()

    /// Makes the logic over the public controller, loading `pageSize` products per page.
    public init(network: NonAuthenticatedNetworkController, pageSize: Int = 20) {
        self.network = network
        self.pageSize = pageSize
    }

    /// The list's states from now on.
    public func states() -> AsyncStream<ScreenState<ProductListContent>> { broadcast.subscribe(keeping: self) }

    /// Loads, pages or searches, and publishes the result.
    @discardableResult
    public func send(_ action: ProductListAction) async -> ScreenState<ProductListContent> {
        switch action {
        case .load(let query):
            return await send(.search(ProductSearch(text: query)))
        case .search(var search):
            let trimmed = search.text?.trimmingCharacters(in: .whitespaces)
            search.text = trimmed?.isEmpty == false ? trimmed : nil
            currentSearch = search
            return broadcast.publish(await fetch(after: nil))
        case .loadMore:
            guard let cursor = list.nextCursor else { return broadcast.publish(.presenting(content)) }
            return broadcast.publish(await fetch(after: cursor))
        case .loadAtLeast(let count):
            var state = broadcast.current
            if state.content == nil { state = await fetch(after: nil) }
            while case .presenting = state, list.items.count < count, let cursor = list.nextCursor {
                state = await fetch(after: cursor)
            }
            return broadcast.publish(state)
        }
    }

    private var content: ProductListContent {
        ProductListContent(products: list.items, search: currentSearch, hasMore: list.hasMore)
    }

    private func fetch(after cursor: String?) async -> ScreenState<ProductListContent> {
        do throws(NetworkError) {
            list.receive(
                try await network.request(
                    BazaarEndpoints.products(search: currentSearch, cursor: cursor, limit: pageSize)),
                after: cursor)
            return .presenting(content)
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
