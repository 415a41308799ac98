import Foundation

/// A chat between the caller and one other user, optionally about one product.
///
/// There is one conversation per unordered pair of users and product (or no product).
public struct Conversation: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier.
    public var id: String
    /// The person the caller is talking to.
    public var otherUser: User
    /// The product the conversation is about, or `nil` for a conversation about nothing in particular.
    public var product: Product?
    /// The newest message, or `nil` before the first one.
    public var lastMessage: Message?
    /// How many messages from the other user the caller has not marked read.
    public var unreadCount: Int
    /// The time of the newest activity (creation or last message).
    public var updatedAt: Date
    /// Whether either member has blocked the other: the history stays readable, but neither
    /// can send a message or an offer in it.
    public var blocked: Bool

    /// Creates a conversation value.
    public init(
        id: String, otherUser: User, product: Product?, lastMessage: Message?, unreadCount: Int,
        updatedAt: Date, blocked: Bool = false
    ) {
        self.id = id
        self.otherUser = otherUser
        self.product = product
        self.lastMessage = lastMessage
        self.unreadCount = unreadCount
        self.updatedAt = updatedAt
        self.blocked = blocked
    }

    private enum CodingKeys: String, CodingKey {
        case id, otherUser, product, lastMessage, unreadCount, updatedAt, blocked
    }

    /// Decodes a conversation; without `blocked` (from a server before blocking) it is not blocked.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        otherUser = try container.decode(User.self, forKey: .otherUser)
        product = try container.decodeIfPresent(Product.self, forKey: .product)
        lastMessage = try container.decodeIfPresent(Message.self, forKey: .lastMessage)
        unreadCount = try container.decode(Int.self, forKey: .unreadCount)
        updatedAt = try container.decode(Date.self, forKey: .updatedAt)
        blocked = try container.decodeIfPresent(Bool.self, forKey: .blocked) ?? false
    }

    /// Encodes every field, writing `null` for a missing product or last message.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(otherUser, forKey: .otherUser)
        try container.encode(product, forKey: .product)
        try container.encode(lastMessage, forKey: .lastMessage)
        try container.encode(unreadCount, forKey: .unreadCount)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(blocked, forKey: .blocked)
    }
}
