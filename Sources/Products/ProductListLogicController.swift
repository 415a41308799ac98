import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// Browsing and searching products a page at a time. An actor: it remembers the pages loaded so far.
public actor ProductListLogicController: ProductListLogic {
    private let network: NonAuthenticatedNetworkController
    private let pageSize: Int
    private var list = PagedItems<Product>()
    private var currentQuery: String?

    /// Makes the logic over the public controller, loading `pageSize` products per page.
    public init(network: NonAuthenticatedNetworkController, pageSize: Int = 20) {
        self.network = network
        self.pageSize = pageSize
    }

    private var content: ProductListContent {
        ProductListContent(products: list.items, query: currentQuery, hasMore: list.hasMore)
    }

    /// Loads the first page of everything, or of the products matching `query`.
    public func load(query: String?) async -> ScreenState<ProductListContent> {
        let trimmed = query?.trimmingCharacters(in: .whitespaces)
        let search = trimmed?.isEmpty == false ? trimmed : nil
        do throws(NetworkError) {
            list.receive(try await network.request(BazaarEndpoints.products(query: search, limit: pageSize)), after: nil)
            currentQuery = search
            return .presenting(content)
        } catch {
            return .failed(ScreenError(error))
        }
    }

    /// Adds the next page; with no more pages, the list stays as it is.
    public func loadMore() async -> ScreenState<ProductListContent> {
        guard let cursor = list.nextCursor else { return .presenting(content) }
        do throws(NetworkError) {
            list.receive(
                try await network.request(BazaarEndpoints.products(query: currentQuery, cursor: cursor, limit: pageSize)),
                after: cursor)
            return .presenting(content)
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
