import BazaarAPI
import BazaarDomain
import BazaarServer
import BazaarStorage
import Foundation
import TestSupport

@testable import BazaarSQLite

/// Small builders for storage tests: users, products, conversations and messages with ids made here.
struct StoreFixtures {
    let store: any BazaarStore
    let now: Date

    /// The marketplace's rules over this store, on this fixture's clock, without quotas.
    let services: MarketplaceServices

    init(_ store: any BazaarStore, now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.store = store
        self.now = now
        services = MarketplaceServices(
            store: store, events: SilentEventBus(), quotas: QuotaLimiter(policy: .unlimited),
            hasher: PasswordHasher(cost: 4), throttle: LoginThrottle(policy: .init(), now: { now }),
            clock: DomainClock(now: { now }))
    }

    static func id() -> String { UUID().uuidString.lowercased() }

    /// Three made-up sizes of a photo (a store keeps bytes; it never decodes them), each's bytes
    /// naming `tag` and its size, `bytes` long for the full one.
    func sizes(_ tag: String, bytes: Int = 64) -> PhotoSizes {
        func size(_ name: PhotoSize, _ count: Int) -> StoredPhoto {
            var data = Data("\(tag)-\(name.rawValue)-".utf8)
            data.append(Data(repeating: 0xAB, count: max(0, count - data.count)))
            return StoredPhoto(mediaType: "image/jpeg", data: data, updatedAt: now)
        }
        return PhotoSizes(
            full: size(.full, bytes), medium: size(.medium, bytes / 2), thumb: size(.thumb, bytes / 4),
            dimensions: PixelSize(width: 2048, height: 1365))
    }

    /// Runs `body` with a store on a new SQLite file, removed afterwards; at most `maxBatch`
    /// concurrent writes share a transaction.
    static func withSQLiteStore(maxBatch: Int = 256, _ body: (SQLiteStore) async throws -> Void) async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(
            try SQLiteStore(path: directory.appendingPathComponent("bazaar.sqlite").path, maxBatch: maxBatch))
    }

    func user(_ username: String) async throws -> User {
        try await store.createUser(
            NewUser(
                id: Self.id(), username: username, displayName: username.capitalized, passwordHash: "hash",
                createdAt: now)
        ).user
    }

    /// A new user (`username`, "ada" unless named) with a session `id` whose first refresh token
    /// (hash) lives a minute from `now`.
    func session(_ id: String, refreshTokenHash: String, username: String = "ada") async throws -> User {
        let ada = try await user(username)
        _ = try await store.createSession(
            id: id, userId: ada.id, passwordHash: "hash", refreshTokenHash: refreshTokenHash, expiresAt: now + 60,
            userAgent: nil, now: now)
        return ada
    }

    func product(_ title: String, seller: User, description: String = "Used, works.") async throws -> Product {
        let product = Product(
            id: Self.id(), sellerId: seller.id, title: title, description: description, priceCents: 1_000,
            currency: "EUR",
            createdAt: now)
        try await store.createProduct(product)
        return product
    }

    func conversation(_ a: User, _ b: User, product: Product? = nil) async throws -> Conversation {
        try await store.openConversation(between: a.id, and: b.id, productId: product?.id, newId: Self.id(), now: now)
            .conversation
    }

    /// A send not made yet: what ``send(_:)`` sends.
    struct PendingSend: Sendable {
        var body: String
        var conversationId: String
        var senderId: String
        var key: String
    }

    func newMessage(_ body: String, in conversation: Conversation, from sender: User, key: String? = nil) -> PendingSend
    {
        PendingSend(body: body, conversationId: conversation.id, senderId: sender.id, key: key ?? Self.id())
    }

    /// Sends through the message rule (``MessageService``), as the server does.
    func send(_ pending: PendingSend) async throws -> MessageService.Sent {
        try await services.messages.send(
            pending.body, idempotencyKey: pending.key, to: pending.conversationId, from: pending.senderId)
    }

    /// Sends and expects a new message.
    func send(_ body: String, in conversation: Conversation, from sender: User) async throws -> Message {
        guard case .created(let message) = try await send(newMessage(body, in: conversation, from: sender)) else {
            throw FixtureError.notCreated
        }
        return message
    }

    enum FixtureError: Error {
        case notCreated
    }
}

/// A bus that announces nothing: for rules whose announcements a test does not read.
struct SilentEventBus: LiveEventBus {
    func publish(_ event: LiveEvent, to userIds: [String]) async {}
    func productsChanged() async {}
    func sessionsRevoked(_ sessionIds: [String]) async {}
}
