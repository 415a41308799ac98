import Foundation

/// The body of `PATCH /v1/users/me`; a field left out (or `null`) stays as it is.
public struct UpdateProfileRequest: Codable, Sendable, Equatable {
    /// A new display name (1-64 characters).
    public var displayName: String?
    /// A new bio (at most 500 characters); an empty string removes the bio.
    public var bio: String?

    /// Creates an update request.
    public init(displayName: String? = nil, bio: String? = nil) {
        self.displayName = displayName
        self.bio = bio
    }
}

/// The body of `POST /v1/products`.
public struct CreateProductRequest: Codable, Sendable, Equatable {
    /// 1-120 characters.
    public var title: String
    /// 0-5000 characters.
    public var description: String
    /// A non-negative price in the currency's minor unit.
    public var priceCents: Int
    /// ISO 4217 code, three upper-case letters.
    public var currency: String

    /// Creates a create-product request.
    public init(title: String, description: String, priceCents: Int, currency: String) {
        self.title = title
        self.description = description
        self.priceCents = priceCents
        self.currency = currency
    }
}

/// The body of `POST /v1/conversations`.
public struct StartConversationRequest: Codable, Sendable, Equatable {
    /// The other user.
    public var userId: String
    /// The product the conversation is about, if any.
    public var productId: String?

    /// Creates a start-conversation request.
    public init(userId: String, productId: String? = nil) {
        self.userId = userId
        self.productId = productId
    }
}

/// The body of `POST /v1/conversations/{id}/messages` (sent with an `Idempotency-Key` header).
public struct SendMessageRequest: Codable, Sendable, Equatable {
    /// Up to 4000 Unicode characters; at least one unless the message carries photos.
    public var body: String
    /// Photos uploaded to the conversation (`POST …/attachments`) and not sent yet, at most
    /// ``Message/attachmentLimit``, in the order they are shown.
    public var attachmentIds: [String]

    /// Creates a send-message request.
    public init(body: String, attachmentIds: [String] = []) {
        self.body = body
        self.attachmentIds = attachmentIds
    }

    private enum CodingKeys: String, CodingKey {
        case body, attachmentIds
    }

    /// Decodes a request; either field may be left out (the rule that one of them is given is the
    /// server's).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
        attachmentIds = try container.decodeIfPresent([String].self, forKey: .attachmentIds) ?? []
    }

    /// Encodes the body, and the photos when there are some (a text message stays as it was).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(body, forKey: .body)
        if !attachmentIds.isEmpty { try container.encode(attachmentIds, forKey: .attachmentIds) }
    }
}

/// The body of `POST /v1/conversations/{id}/read`: everything up to and including a message is read.
public struct MarkReadRequest: Codable, Sendable, Equatable {
    /// The id of the newest message the caller has seen.
    public var upTo: String

    /// Creates a mark-read request.
    public init(upTo: String) {
        self.upTo = upTo
    }
}

/// The body of `POST /v1/notifications/read`: either some ids or `all: true`.
public struct MarkNotificationsReadRequest: Codable, Sendable, Equatable {
    /// The notifications to mark read (ids that are not the caller's are ignored).
    public var ids: [String]?
    /// `true` marks every notification of the caller read.
    public var all: Bool?

    /// Creates a mark-notifications-read request.
    public init(ids: [String]? = nil, all: Bool? = nil) {
        self.ids = ids
        self.all = all
    }
}
