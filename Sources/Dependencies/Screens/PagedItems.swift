import BazaarAPI

/// A list loaded a page at a time: the items so far and the cursor of the next page.
///
/// Every paged screen (products, conversations, notifications) keeps one; a first page replaces
/// what was there, a later page is appended.
public struct PagedItems<Item: Codable & Sendable & Equatable>: Sendable, Equatable {
    /// The items loaded so far, in the server's order.
    public private(set) var items: [Item] = []
    /// Where the next page starts; `nil` on the last page.
    public private(set) var nextCursor: String?

    /// An empty list.
    public init() {}

    /// Whether another page can be loaded.
    public var hasMore: Bool { nextCursor != nil }

    /// Takes in a page: a first page (`after == nil`) replaces the items, a later one is appended.
    public mutating func receive(_ page: Page<Item>, after cursor: String?) {
        items = (cursor == nil ? [] : items) + page.items
        nextCursor = page.nextCursor
    }

    /// Drops the loaded items that match (a saved product removed, say).
    public mutating func remove(where matches: (Item) -> Bool) {
        items.removeAll(where: matches)
    }

    /// Changes the loaded items in place (marking notifications read, say).
    public mutating func update(where matches: (Item) -> Bool, _ change: (inout Item) -> Void) {
        for index in items.indices where matches(items[index]) {
            change(&items[index])
        }
    }
}
