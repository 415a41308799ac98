import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// Browsing and searching products a page at a time. An actor: it remembers the pages loaded so far.
public actor ProductListLogicController: ProductListLogic {
    private let network: NonAuthenticatedNetworkController
    private let pageSize: Int
    private var content = ProductListContent(products: [], query: nil, hasMore: false)
    private var nextCursor: String?

    /// Makes the logic over the public controller, loading `pageSize` products per page.
    public init(network: NonAuthenticatedNetworkController, pageSize: Int = 20) {
        self.network = network
        self.pageSize = pageSize
    }

    /// Loads the first page of everything, or of the products matching `query`.
    public func load(query: String?) async -> ScreenState<ProductListContent> {
        let trimmed = query?.trimmingCharacters(in: .whitespaces)
        let search = trimmed?.isEmpty == false ? trimmed : nil
        do throws(NetworkError) {
            let page = try await network.request(BazaarEndpoints.products(query: search, limit: pageSize))
            content = ProductListContent(products: page.items, query: search, hasMore: page.nextCursor != nil)
            nextCursor = page.nextCursor
            return .presenting(content)
        } catch {
            return .failed(ScreenError(error))
        }
    }

    /// Adds the next page; with no more pages, the list stays as it is.
    public func loadMore() async -> ScreenState<ProductListContent> {
        guard let cursor = nextCursor else { return .presenting(content) }
        do throws(NetworkError) {
            let page = try await network.request(
                BazaarEndpoints.products(query: content.query, cursor: cursor, limit: pageSize))
            content.products += page.items
            content.hasMore = page.nextCursor != nil
            nextCursor = page.nextCursor
            return .presenting(content)
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
