import Foundation

/// One line of a conversation's timeline: a message someone wrote, or an offer or a decision on
/// one, written by the server as a sentence (so every client shows it, also one that knows
/// nothing of offers).
public struct Message: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier.
    public var id: String
    /// The conversation it belongs to.
    public var conversationId: String
    /// The user who wrote it.
    public var senderId: String
    /// The text: up to 4000 Unicode characters, empty only when the message carries photos (for
    /// an offer line, a sentence such as "Offered 120.00 EUR").
    public var body: String
    /// When the server accepted it.
    public var createdAt: Date
    /// A written message, or an offer's line.
    public var kind: MessageKind
    /// For an offer's line, the offer it is about.
    public var offerId: String?
    /// Whether a moderator removed it: its body is then ``removedBody``, for both members.
    public var removed: Bool
    /// The photos it carries (at most ``Message/attachmentLimit``), in the sender's order.
    public var attachments: [Photo]

    /// The most photos one message carries.
    public static let attachmentLimit = 4

    /// The body of a message a moderator removed.
    public static let removedBody = "This message was removed by a moderator."

    /// Creates a message value (a written one unless `kind` says otherwise).
    public init(
        id: String, conversationId: String, senderId: String, body: String, createdAt: Date, kind: MessageKind = .text,
        offerId: String? = nil, removed: Bool = false, attachments: [Photo] = []
    ) {
        self.id = id
        self.conversationId = conversationId
        self.senderId = senderId
        self.body = body
        self.createdAt = createdAt
        self.kind = kind
        self.offerId = offerId
        self.removed = removed
        self.attachments = attachments
    }

    private enum CodingKeys: String, CodingKey {
        case id, conversationId, senderId, body, createdAt, kind, offerId, removed, attachments
    }

    /// Decodes a message; without `kind` (from a server before offers) it is a written one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        conversationId = try container.decode(String.self, forKey: .conversationId)
        senderId = try container.decode(String.self, forKey: .senderId)
        body = try container.decode(String.self, forKey: .body)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        kind = try container.decodeIfPresent(MessageKind.self, forKey: .kind) ?? .text
        offerId = try container.decodeIfPresent(String.self, forKey: .offerId)
        removed = try container.decodeIfPresent(Bool.self, forKey: .removed) ?? false
        attachments = try container.decodeIfPresent([Photo].self, forKey: .attachments) ?? []
    }

    /// Encodes the message; `offerId` only on an offer's line, `removed` only when true and
    /// `attachments` only when it has some, so the common message stays as short as before.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(conversationId, forKey: .conversationId)
        try container.encode(senderId, forKey: .senderId)
        try container.encode(body, forKey: .body)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(offerId, forKey: .offerId)
        if removed { try container.encode(true, forKey: .removed) }
        if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
    }
}

/// What a timeline line is.
public enum MessageKind: String, Codable, Sendable, Hashable, CaseIterable {
    /// Written by a member.
    case text
    /// An offer made, accepted, declined or withdrawn (the line's `offerId` names it).
    case offer
}
