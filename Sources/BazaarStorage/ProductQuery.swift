import BazaarAPI
import BazaarSearch

/// A page of the product list as storage reads it: search, filters, order and position.
public struct ProductQuery: Sendable {
    /// The parsed search text; `nil` lists every product.
    public var search: SearchExpression?
    /// Filters every product on the page passes.
    public var filters: ProductFilters
    /// The order (``ProductOrder/relevance`` only with a search).
    public var order: ProductOrder
    /// Where the previous page ended; `nil` for the first page.
    public var after: ProductPosition?
    /// The most products on the page.
    public var limit: Int

    /// Makes a query; `relevance` without a search is read as `newest`.
    public init(
        search: SearchExpression? = nil, filters: ProductFilters = ProductFilters(), order: ProductOrder? = nil,
        after: ProductPosition? = nil, limit: Int
    ) {
        self.search = search
        self.filters = filters
        let requested = order ?? (search == nil ? .newest : .relevance)
        self.order = requested == .relevance && search == nil ? .newest : requested
        self.after = after
        self.limit = limit
    }
}

/// Status, price and seller conditions on the product list.
public struct ProductFilters: Sendable, Equatable {
    /// The lowest price included, in minor units.
    public var minPriceCents: Int64?
    /// The highest price included, in minor units.
    public var maxPriceCents: Int64?
    /// Only this seller's products.
    public var sellerId: String?
    /// Which statuses are listed: only available ones unless asked.
    public var status: ProductStatusFilter

    /// Makes filters; each is optional, and the list shows what is available by default.
    public init(
        minPriceCents: Int64? = nil, maxPriceCents: Int64? = nil, sellerId: String? = nil,
        status: ProductStatusFilter = .available
    ) {
        self.minPriceCents = minPriceCents
        self.maxPriceCents = maxPriceCents
        self.sellerId = sellerId
        self.status = status
    }
}

/// The orders storage reads products in.
public enum ProductOrder: Sendable, Equatable {
    /// Title matches first, then description-only matches; newest first within each.
    case relevance
    /// Highest `seq` first.
    case newest
    /// Lowest price first, then highest `seq`.
    case priceAscending
    /// Highest price first, then highest `seq`.
    case priceDescending
}

/// Where a page of products ended: the last product's sort key, which the next page starts after.
public enum ProductPosition: Sendable, Equatable {
    /// In ``ProductOrder/newest``.
    case newest(seq: Int64)
    /// In ``ProductOrder/relevance``: whether the product's title matched, and its `seq`.
    case relevance(titleMatch: Bool, seq: Int64)
    /// In either price order.
    case price(cents: Int64, seq: Int64)
}

/// One ordered, filtered run over the products that a store reads for a page: the building
/// block of every order (relevance reads up to two runs, title matches and then the rest).
public struct ProductScan: Sendable {
    /// Which products a scan reads by their text.
    public enum Text: Sendable {
        /// All of them.
        case all
        /// Those matching the search.
        case matching(SearchExpression)
        /// Those matching the search whose title alone holds its required words.
        case titleMatching(SearchExpression)
        /// Those matching the search whose title alone does not.
        case descriptionOnlyMatching(SearchExpression)
    }

    /// The order of a scan; `seq` descending breaks every tie.
    public enum Order: Sendable, Equatable {
        /// Highest `seq` first.
        case newest
        /// Lowest price first.
        case priceAscending
        /// Highest price first.
        case priceDescending
    }

    /// Which products, by text.
    public var text: Text
    /// Price and seller conditions.
    public var filters: ProductFilters
    /// The order.
    public var order: Order
    /// Start strictly after this key: `seq` alone for ``Order/newest``, price then `seq` otherwise.
    public var after: (priceCents: Int64?, seq: Int64)?
    /// The most products to read.
    public var limit: Int

    /// The search its text condition runs, if it has one.
    public var search: SearchExpression? {
        switch text {
        case .all: nil
        case .matching(let search), .titleMatching(let search), .descriptionOnlyMatching(let search): search
        }
    }
}

/// A product with the sequence number that orders it.
public struct ScannedProduct: Sendable {
    /// The product.
    public var product: Product
    /// Its position in listing order.
    public var seq: Int64

    /// Pairs a product with its `seq`.
    public init(product: Product, seq: Int64) {
        self.product = product
        self.seq = seq
    }
}

extension BazaarStore {
    /// One page of products for `query`, read as one or two ``ProductScan``s, with the position of
    /// its last product when more follow.
    ///
    /// Each scan is keyset-paged (no `OFFSET`), so products listed while someone pages never
    /// repeat or skip an item, in any order.
    public func products(_ query: ProductQuery) async throws -> (items: [Product], next: ProductPosition?) {
        switch query.order {
        case .newest, .priceAscending, .priceDescending:
            let order: ProductScan.Order =
                query.order == .newest ? .newest : query.order == .priceAscending ? .priceAscending : .priceDescending
            let text: ProductScan.Text = query.search.map { .matching($0) } ?? .all
            let after: (Int64?, Int64)? =
                switch query.after {
                case .newest(let seq)?: (nil, seq)
                case .price(let cents, let seq)?: (cents, seq)
                case .relevance?, nil: nil
                }
            let rows = try await scanProducts(
                ProductScan(text: text, filters: query.filters, order: order, after: after, limit: query.limit + 1))
            let page = Array(rows.prefix(query.limit))
            let next: ProductPosition? =
                rows.count > query.limit
                ? page.last.map { last in
                    order == .newest
                        ? .newest(seq: last.seq) : .price(cents: Int64(last.product.priceCents), seq: last.seq)
                } : nil
            return (page.map(\.product), next)
        case .relevance:
            guard let search = query.search else { return ([], nil) }
            var page: [(product: ScannedProduct, titleMatch: Bool)] = []
            var more = false
            let startsInTitleRun: Bool
            if case .relevance(let titleMatch, _)? = query.after {
                startsInTitleRun = titleMatch
            } else {
                startsInTitleRun = true
            }
            if startsInTitleRun {
                let after: (Int64?, Int64)? =
                    if case .relevance(true, let seq)? = query.after { (nil, seq) } else { nil }
                let rows = try await scanProducts(
                    ProductScan(
                        text: .titleMatching(search), filters: query.filters, order: .newest, after: after,
                        limit: query.limit + 1))
                page = rows.prefix(query.limit).map { ($0, true) }
                more = rows.count > query.limit
            }
            if !more {
                let after: (Int64?, Int64)? =
                    if case .relevance(false, let seq)? = query.after { (nil, seq) } else { nil }
                let room = query.limit - page.count
                let rows = try await scanProducts(
                    ProductScan(
                        text: .descriptionOnlyMatching(search), filters: query.filters, order: .newest, after: after,
                        limit: room + 1))
                page += rows.prefix(room).map { ($0, false) }
                more = rows.count > room
            }
            let next =
                more ? page.last.map { ProductPosition.relevance(titleMatch: $0.titleMatch, seq: $0.product.seq) } : nil
            return (page.map(\.product.product), next)
        }
    }
}
