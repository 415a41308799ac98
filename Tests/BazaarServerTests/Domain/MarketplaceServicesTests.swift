import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// The marketplace's rules, run through their services on every storage engine, without HTTP.
@Suite("Marketplace services on every backend")
struct MarketplaceServicesTests {
    @Test(arguments: StorageKind.available)
    func anIdempotencyKeyPostsOnceReplaysTheSameRequestAndRefusesAnother(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let cyd = try await fixtures.user("cyd")
            let conversation = try await fixtures.conversation(bob, ada)
            guard
                case .created(let message) = try await fixtures.send(
                    fixtures.newMessage("hello", in: conversation, from: bob, key: "k1"))
            else {
                Issue.record("expected a new message")
                return
            }
            #expect(message.body == "hello")
            let notified = try await store.notifications(userId: ada.id, before: nil, limit: 50).items
            #expect(notified.map(\.messageId) == [message.id], "the recipient is notified of the message")
            #expect(try await store.notifications(userId: bob.id, before: nil, limit: 50).items.isEmpty)
            var again = fixtures.newMessage("hello", in: conversation, from: bob, key: "k1")
            #expect(try await fixtures.send(again) == .replayed(message))
            again.body = "something else"
            await #expect(
                throws: DomainError.conflict(
                    code: "idempotency_key_reused",
                    message: "This Idempotency-Key was already used for a different message.")
            ) {
                try await fixtures.send(again)
            }
            await #expect(throws: DomainError.notFound("The conversation")) {
                try await fixtures.send(fixtures.newMessage("hi", in: conversation, from: cyd))
            }
            // The same key belongs to each sender separately.
            guard
                case .created = try await fixtures.send(
                    fixtures.newMessage("hello", in: conversation, from: ada, key: "k1"))
            else {
                Issue.record("another sender's key is their own")
                return
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func oneIdempotencyKeySentManyTimesAtOnceStoresOneMessage(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let conversation = try await fixtures.conversation(bob, ada)
            let outcomes = try await withThrowingTaskGroup(of: MessageService.Sent.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await fixtures.send(fixtures.newMessage("once", in: conversation, from: bob, key: "same"))
                    }
                }
                return try await group.reduce(into: [MessageService.Sent]()) { $0.append($1) }
            }
            let created = outcomes.compactMap { if case .created(let message) = $0 { message } else { nil } }
            #expect(created.count == 1)
            #expect(
                outcomes.allSatisfy { if case .replayed(let message) = $0 { message == created.first } else { true } })
            let history = try await store.messages(
                conversationId: conversation.id, viewerId: ada.id, before: nil, limit: 50)
            #expect(history?.items.count == 1)
            #expect(try await store.notifications(userId: ada.id, before: nil, limit: 50).items.count == 1)
        }
    }

    @Test(arguments: StorageKind.available)
    func aReplayCostsNoQuotaAndANewMessagePastTheQuotaIsRefusedUnstored(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let conversation = try await fixtures.conversation(bob, ada)
            let services = MarketplaceServices(
                store: store, events: SilentEventBus(), quotas: QuotaLimiter(policy: QuotaPolicy(messagesPerMinute: 2)),
                hasher: PasswordHasher(cost: 4), throttle: LoginThrottle(policy: .init(), now: { fixtures.now }),
                clock: DomainClock(now: { fixtures.now }))
            let first = try await services.messages.send("one", idempotencyKey: "k", to: conversation.id, from: bob.id)
            // Replayed twice: were either charged, "two" below would be over the quota of 2.
            for _ in 0..<2 {
                #expect(
                    try await services.messages.send("one", idempotencyKey: "k", to: conversation.id, from: bob.id)
                        == .replayed(first.message))
            }
            _ = try await services.messages.send("two", idempotencyKey: "k2", to: conversation.id, from: bob.id)
            await #expect(throws: DomainError.self) {
                try await services.messages.send("three", idempotencyKey: "k3", to: conversation.id, from: bob.id)
            }
            let history = try await store.messages(
                conversationId: conversation.id, viewerId: ada.id, before: nil, limit: 50)
            #expect(history?.items.map(\.body) == ["two", "one"])
        }
    }

    @Test(arguments: StorageKind.available)
    func registrationKeepsItsFieldRulesAndOneAccountPerUsername(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let accounts = StoreFixtures(store).services.accounts
            let ada = try await accounts.register(username: "ada", password: "long enough", displayName: "Ada")
            #expect(ada.user.username == "ada")
            #expect(ada.passwordHash != "long enough", "only a hash of the password is stored")
            await #expect(throws: DomainError.conflict(code: "username_taken", message: "That username is taken.")) {
                try await accounts.register(username: "ada", password: "another one", displayName: "Ada again")
            }
            await #expect(throws: DomainError.self) {
                try await accounts.register(username: "Ada!", password: "long enough", displayName: "A")
            }
            await #expect(throws: DomainError.self) {
                try await accounts.register(username: "bob", password: "short", displayName: "Bob")
            }
            #expect(try await store.user(username: "bob") == nil)
        }
    }
}

extension MessageService.Sent {
    /// The message, new or replayed.
    var message: Message {
        switch self {
        case .created(let message), .replayed(let message): message
        }
    }
}
