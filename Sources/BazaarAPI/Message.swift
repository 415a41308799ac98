import Foundation

/// One chat message inside a conversation.
public struct Message: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier.
    public var id: String
    /// The conversation it belongs to.
    public var conversationId: String
    /// The user who wrote it.
    public var senderId: String
    /// The text: 1-4000 Unicode characters.
    public var body: String
    /// When the server accepted it.
    public var createdAt: Date

    /// Creates a message value.
    public init(id: String, conversationId: String, senderId: String, body: String, createdAt: Date) {
        self.id = id
        self.conversationId = conversationId
        self.senderId = senderId
        self.body = body
        self.createdAt = createdAt
    }
}
