import Foundation

/// Something that happened for the caller, shown in their notification list.
public struct Notification: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier.
    public var id: String
    /// What happened; see ``NotificationType`` for the known values.
    public var type: String
    /// Whether the caller marked it read.
    public var read: Bool
    /// When it happened.
    public var createdAt: Date
    /// The conversation it is about, when it is about one.
    public var conversationId: String?
    /// The message it is about, when it is about one.
    public var messageId: String?
    /// The product it is about, when it is about one (a saved product's price or sale).
    public var productId: String?
    /// The report it is about, when it is about one (the outcome of the caller's report).
    public var reportId: String?

    /// Creates a notification value.
    public init(
        id: String, type: String, read: Bool, createdAt: Date, conversationId: String?,
        messageId: String?, productId: String? = nil, reportId: String? = nil
    ) {
        self.id = id
        self.type = type
        self.read = read
        self.createdAt = createdAt
        self.conversationId = conversationId
        self.messageId = messageId
        self.productId = productId
        self.reportId = reportId
    }

    /// Encodes every field, writing `null` for the ids it is not about.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(read, forKey: .read)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(conversationId, forKey: .conversationId)
        try container.encode(messageId, forKey: .messageId)
        try container.encode(productId, forKey: .productId)
        try container.encodeIfPresent(reportId, forKey: .reportId)
    }
}

/// The notification types the server creates.
public enum NotificationType {
    /// Someone sent the caller a message.
    public static let newMessage = "message.new"
    /// A buyer made an offer on the caller's product.
    public static let offerReceived = "offer.received"
    /// The seller accepted the caller's offer.
    public static let offerAccepted = "offer.accepted"
    /// The seller declined the caller's offer (or accepted another).
    public static let offerDeclined = "offer.declined"
    /// A product the caller saved costs less now.
    public static let favouritePriceDropped = "favourite.price_dropped"
    /// A product the caller saved was sold.
    public static let favouriteSold = "favourite.sold"
    /// The other party of a sale reviewed the caller.
    public static let reviewReceived = "review.received"
    /// A moderator acted on the caller's report (its `reportId` says which; the report says how).
    public static let reportResolved = "report.resolved"
}
