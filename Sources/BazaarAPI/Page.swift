import Foundation

/// One page of a list: its items and the cursor for the next page.
public struct Page<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The items on this page, in the list's order.
    public var items: [Item]
    /// The opaque cursor for the next page, or `nil` on the last page.
    public var nextCursor: String?

    /// Creates a page.
    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// Encodes both fields, writing `null` for the last page's cursor.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}
