import Foundation

/// A live event sent over the `/v1/events` WebSocket as a JSON text frame `{type, data}`.
public enum LiveEvent: Codable, Sendable, Equatable {
    /// A message was posted into one of the caller's conversations (type `message.created`).
    case messageCreated(Message)
    /// A participant marked a conversation read (type `conversation.read`).
    case conversationRead(ConversationRead)
    /// The caller got a new notification (type `notification.created`).
    case notificationCreated(Notification)
    /// An offer in one of the caller's conversations was made or decided (type `offer.updated`).
    case offerUpdated(Offer)
    /// The socket is subscribed: every later event reaches it (type `ready`, always the first frame).
    case ready(Ready)

    /// The `type` strings of the envelope.
    public enum Kind {
        /// `message.created`
        public static let messageCreated = "message.created"
        /// `conversation.read`
        public static let conversationRead = "conversation.read"
        /// `notification.created`
        public static let notificationCreated = "notification.created"
        /// `offer.updated`
        public static let offerUpdated = "offer.updated"
        /// `ready`
        public static let ready = "ready"
    }

    /// The `type` string of this event.
    public var type: String {
        switch self {
        case .messageCreated: Kind.messageCreated
        case .conversationRead: Kind.conversationRead
        case .notificationCreated: Kind.notificationCreated
        case .offerUpdated: Kind.offerUpdated
        case .ready: Kind.ready
        }
    }

    private enum CodingKeys: String, CodingKey {
        case type, data
    }

    /// Decodes the `{type, data}` envelope; an unknown type is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case Kind.messageCreated:
            self = .messageCreated(try container.decode(Message.self, forKey: .data))
        case Kind.conversationRead:
            self = .conversationRead(try container.decode(ConversationRead.self, forKey: .data))
        case Kind.notificationCreated:
            self = .notificationCreated(try container.decode(Notification.self, forKey: .data))
        case Kind.offerUpdated:
            self = .offerUpdated(try container.decode(Offer.self, forKey: .data))
        case Kind.ready:
            self = .ready(try container.decode(Ready.self, forKey: .data))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown event type \(type)")
        }
    }

    /// Encodes the `{type, data}` envelope.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .messageCreated(let message): try container.encode(message, forKey: .data)
        case .conversationRead(let read): try container.encode(read, forKey: .data)
        case .notificationCreated(let notification): try container.encode(notification, forKey: .data)
        case .offerUpdated(let offer): try container.encode(offer, forKey: .data)
        case .ready(let ready): try container.encode(ready, forKey: .data)
        }
    }
}

/// The data of a `conversation.read` event: who read which conversation up to which message.
public struct ConversationRead: Codable, Sendable, Equatable {
    /// The conversation that was read.
    public var conversationId: String
    /// The participant who read it.
    public var userId: String
    /// The newest message they have read.
    public var upTo: String

    /// Creates a conversation-read value.
    public init(conversationId: String, userId: String, upTo: String) {
        self.conversationId = conversationId
        self.userId = userId
        self.upTo = upTo
    }
}

/// The data of the `ready` event: whose events this socket carries.
public struct Ready: Codable, Sendable, Equatable {
    /// The signed-in user the socket belongs to.
    public var userId: String

    /// Creates a ready value.
    public init(userId: String) {
        self.userId = userId
    }
}
