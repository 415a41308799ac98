import BazaarAPI
import BazaarServer
import BazaarStorage
import Foundation
import TestSupport
import Testing

@testable import BazaarSearch

/// One suite for ``BazaarStore``, run on every backend this run has (SQLite always, PostgreSQL
/// beside `scripts/with-postgres.sh`), so the two cannot drift apart. Concurrency cases run the
/// operations at once, as two replicas (or two requests) would.
@Suite("BazaarStore on every backend")
struct StorageTests {
    // MARK: Users

    @Test(arguments: StorageKind.available)
    func aUsernameIsTakenOnceAndUsersAreFoundByIdAndName(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            await #expect(throws: StoreError.conflict("username")) { try await fixtures.user("ada") }
            #expect(try await store.user(id: ada.id)?.user == ada)
            #expect(try await store.user(username: "ada")?.user == ada)
            #expect(try await store.user(username: "nobody") == nil)
            #expect(ada.createdAt == fixtures.now)
        }
    }

    @Test(arguments: StorageKind.available)
    func concurrentRegistrationsOfOneUsernameMakeOneUser(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { (try? await fixtures.user("sam")) != nil } }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
        }
    }

    @Test(arguments: StorageKind.available)
    func profileChangesKeepClearOrSetEachField(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let ada = try await StoreFixtures(store).user("ada")
            let named = try await store.updateProfile(userId: ada.id, displayName: "Ada L.", bio: .set("Engines"))
            #expect(named?.user.displayName == "Ada L.")
            #expect(named?.user.bio == "Engines")
            let kept = try await store.updateProfile(userId: ada.id, displayName: nil, bio: .keep)
            #expect(kept?.user.displayName == "Ada L.")
            #expect(kept?.user.bio == "Engines")
            let cleared = try await store.updateProfile(userId: ada.id, displayName: nil, bio: .clear)
            #expect(cleared?.user.bio == nil)
            #expect(try await store.updateProfile(userId: "missing", displayName: "X", bio: .keep) == nil)
        }
    }

    @Test(arguments: StorageKind.available)
    func aProfilePhotoIsStoredInEverySizeAndReplacedWhole(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let first = fixtures.sizes("first")
            let second = fixtures.sizes("second", bytes: 70_000)
            let updated = try await store.setPhoto(userId: ada.id, photo: first)
            #expect(updated?.user.photoURL?.contains(String(first.full.digest.prefix(16))) == true)
            for size in PhotoSize.allCases {
                #expect(try await store.photo(userId: ada.id, size: size) == first[size], "\(size)")
            }
            _ = try await store.setPhoto(userId: ada.id, photo: second)
            for size in PhotoSize.allCases {
                #expect(try await store.photo(userId: ada.id, size: size) == second[size], "\(size)")
            }
            #expect(try await store.setPhoto(userId: "missing", photo: first) == nil)
            #expect(try await store.photo(userId: "missing", size: .thumb) == nil)
        }
    }

    // MARK: Sessions

    @Test(arguments: StorageKind.available)
    func aRefreshTokenRotatesOnceAndItsReuseRevokesTheSession(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.session("s1", refreshTokenHash: "t1")
            let now = fixtures.now
            #expect(
                try await store.rotateRefreshToken(hash: "t1", newHash: "t2", newExpiresAt: now + 60, now: now)
                    == .rotated(userId: ada.id, sessionId: "s1"))
            #expect(try await store.isSessionActive(id: "s1"))
            #expect(
                try await store.rotateRefreshToken(hash: "t1", newHash: "t3", newExpiresAt: now + 60, now: now)
                    == .reused(sessionId: "s1"))
            #expect(try await store.isSessionActive(id: "s1") == false)
            // The successor dies with the session.
            #expect(
                try await store.rotateRefreshToken(hash: "t2", newHash: "t4", newExpiresAt: now + 60, now: now)
                    == .invalid)
            #expect(
                try await store.rotateRefreshToken(hash: "unknown", newHash: "t5", newExpiresAt: now + 60, now: now)
                    == .invalid)
        }
    }

    @Test(arguments: StorageKind.available)
    func anExpiredRefreshTokenIsInvalidAndLogoutEndsTheSession(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            _ = try await fixtures.session("s1", refreshTokenHash: "t1")
            let now = fixtures.now
            #expect(
                try await store.rotateRefreshToken(hash: "t1", newHash: "t2", newExpiresAt: now + 60, now: now + 61)
                    == .invalid)
            #expect(try await store.isSessionActive(id: "s1"))  // known active before the logout
            try await store.revokeSession(id: "s1", now: now)
            #expect(try await store.isSessionActive(id: "s1") == false)
            #expect(try await store.isSessionActive(id: "never") == false)
        }
    }

    @Test(arguments: StorageKind.available)
    func oneRefreshTokenSpentTwiceAtOnceRotatesOnceAndRevokesTheSession(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            _ = try await fixtures.session("s1", refreshTokenHash: "t1")
            #expect(try await store.isSessionActive(id: "s1"))
            let now = fixtures.now
            let outcomes = try await withThrowingTaskGroup(of: RefreshOutcome.self) { group in
                for index in 0..<2 {
                    group.addTask {
                        try await store.rotateRefreshToken(
                            hash: "t1", newHash: "next-\(index)", newExpiresAt: now + 60, now: now)
                    }
                }
                return try await group.reduce(into: [RefreshOutcome]()) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .rotated = $0 { true } else { false } }.count == 1)
            #expect(outcomes.contains(.reused(sessionId: "s1")))
            #expect(try await store.isSessionActive(id: "s1") == false)
        }
    }

    // MARK: Products

    @Test(arguments: StorageKind.available)
    func productsPageNewestFirstWithoutGapsOrRepeats(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            var listed: [Product] = []
            for index in 0..<7 { listed.append(try await fixtures.product("Item \(index)", seller: ada)) }
            var seen: [Product] = []
            var position: ProductPosition?
            repeat {
                let page = try await store.products(ProductQuery(after: position, limit: 3))
                seen += page.items
                position = page.next
                // A product listed while paging never appears on a later page.
                if seen.count == 3 { _ = try await fixtures.product("Late", seller: ada) }
            } while position != nil
            #expect(seen == listed.reversed())
            #expect(try await store.product(id: listed[2].id) == listed[2])
            #expect(try await store.product(id: "missing") == nil)
        }
    }

    @Test(arguments: StorageKind.available)
    func searchFindsWordFormsAndRanksTitleMatchesFirst(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bike = try await fixtures.product("Road BIKE", seller: ada)
            let lamp = try await fixtures.product("Lamp", seller: ada, description: "for bike sheds, 100% brass")
            let chair = try await fixtures.product("Chair", seller: ada, description: "oak-wood")
            let newer = try await fixtures.product("Bikes for kids", seller: ada)
            let map = try await fixtures.product("Map of the road", seller: ada, description: "Bike lanes and paths")
            func search(_ text: String) async throws -> [Product] {
                try await store.products(ProductQuery(search: try SearchExpression.parse(text), limit: 10)).items
            }
            #expect(try await search("bikes") == [newer, bike, map, lamp])
            // A phrase never runs from the end of the title into the description.
            #expect(try await search("\"road bike\"") == [bike])
            #expect(try await search("road bike") == [bike, map])
            #expect(try await search("brass 100") == [lamp])
            #expect(try await search("\"oak wood\"") == [chair])
            #expect(try await search("bike -kids") == [bike, map, lamp])
            #expect(try await search("chair or lamp") == [chair, lamp])
            #expect(try await store.products(ProductQuery(limit: 10)).items.count == 5)
        }
    }

    // MARK: Conversations and messages

    @Test(arguments: StorageKind.available)
    func aConversationIsOnePerPairAndProductWhoeverOpensIt(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let bike = try await fixtures.product("Bike", seller: ada)
            let first = try await store.openConversation(
                between: bob.id, and: ada.id, productId: bike.id, newId: "c1", now: fixtures.now)
            #expect(first.created)
            #expect(first.conversation.otherUser == ada)
            #expect(first.conversation.product == bike)
            let again = try await store.openConversation(
                between: ada.id, and: bob.id, productId: bike.id, newId: "c2", now: fixtures.now)
            #expect(!again.created)
            #expect(again.conversation.id == first.conversation.id)
            #expect(again.conversation.otherUser == bob)
            let general = try await store.openConversation(
                between: ada.id, and: bob.id, productId: nil, newId: "c3", now: fixtures.now)
            #expect(general.created)
            #expect(general.conversation.product == nil)
        }
    }

    @Test(arguments: StorageKind.available)
    func concurrentOpensOfOnePairMakeOneConversation(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        let (a, b) = index.isMultiple(of: 2) ? (ada, bob) : (bob, ada)
                        return try await store.openConversation(
                            between: a.id, and: b.id, productId: nil, newId: StoreFixtures.id(), now: fixtures.now
                        )
                        .conversation.id
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
        }
    }

    @Test(arguments: StorageKind.available)
    func unreadCountsFollowMessagesAndReadMarkers(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let conversation = try await fixtures.conversation(bob, ada)
            let first = try await fixtures.send("one", in: conversation, from: bob)
            let second = try await fixtures.send("two", in: conversation, from: bob)
            _ = try await fixtures.send("three", in: conversation, from: bob)
            #expect(try await store.conversation(id: conversation.id, viewerId: ada.id)?.unreadCount == 3)
            #expect(try await store.conversation(id: conversation.id, viewerId: bob.id)?.unreadCount == 0)
            #expect(
                try await store.markRead(
                    conversationId: conversation.id, viewerId: ada.id, upTo: second.id, now: fixtures.now)
                    == .marked(otherUserId: bob.id))
            #expect(try await store.conversation(id: conversation.id, viewerId: ada.id)?.unreadCount == 1)
            // A marker never moves back.
            _ = try await store.markRead(
                conversationId: conversation.id, viewerId: ada.id, upTo: first.id, now: fixtures.now)
            #expect(try await store.conversation(id: conversation.id, viewerId: ada.id)?.unreadCount == 1)
            let notifications = try await store.notifications(userId: ada.id, before: nil, limit: 10).items
            #expect(notifications.map(\.read) == [false, true, true])
            // Ada answering counts for Bob, and marks her own side read.
            let reply = try await fixtures.send("four", in: conversation, from: ada)
            #expect(try await store.conversation(id: conversation.id, viewerId: ada.id)?.unreadCount == 0)
            #expect(try await store.conversation(id: conversation.id, viewerId: bob.id)?.unreadCount == 1)
            #expect(try await store.conversation(id: conversation.id, viewerId: bob.id)?.lastMessage == reply)
            #expect(
                try await store.markRead(
                    conversationId: conversation.id, viewerId: ada.id, upTo: "missing", now: fixtures.now)
                    == .unknownMessage)
            let cyd = try await fixtures.user("cyd")
            #expect(
                try await store.markRead(
                    conversationId: conversation.id, viewerId: cyd.id, upTo: first.id, now: fixtures.now) == nil)
            #expect(try await store.conversation(id: conversation.id, viewerId: cyd.id) == nil)
        }
    }

    @Test(arguments: StorageKind.available)
    func historyAndConversationListsPageWithStableCursors(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            var sent: [Message] = []
            var conversations: [Conversation] = []
            for index in 0..<5 {
                let other = try await fixtures.user("user\(index)")
                let conversation = try await store.openConversation(
                    between: ada.id, and: other.id, productId: nil, newId: StoreFixtures.id(),
                    now: fixtures.now + TimeInterval(index)
                ).conversation
                conversations.append(conversation)
                if index == 0 {
                    for number in 0..<5 {
                        sent.append(try await fixtures.send("m\(number)", in: conversation, from: other))
                    }
                }
            }
            var history: [Message] = []
            var before: Int64?
            repeat {
                guard
                    let slice = try await store.messages(
                        conversationId: conversations[0].id, viewerId: ada.id, before: before, limit: 2)
                else {
                    Issue.record("ada's conversation was not found")
                    return
                }
                history += slice.items
                before = slice.next
            } while before != nil
            #expect(history == sent.reversed())
            #expect(
                try await store.messages(
                    conversationId: conversations[0].id, viewerId: "stranger", before: nil, limit: 2) == nil)

            var listed: [String] = []
            var position: ConversationPosition?
            repeat {
                let page = try await store.conversations(viewerId: ada.id, before: position, limit: 2)
                listed += page.items.map(\.id)
                position = page.next
            } while position != nil
            // Newest activity first: the messages sent at `now` leave conversation 0 where its time puts it.
            #expect(Set(listed) == Set(conversations.map(\.id)))
            #expect(listed.count == conversations.count)
            let full = try await store.conversations(viewerId: ada.id, before: nil, limit: 10).items
            #expect(full.map(\.id) == listed)
            #expect(full.first { $0.id == conversations[0].id }?.unreadCount == 5)
        }
    }

    // MARK: Notifications

    @Test(arguments: StorageKind.available)
    func notificationsAreMarkedReadSomeOrAllAndOnlyTheOwnersOnes(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let conversation = try await fixtures.conversation(bob, ada)
            for number in 0..<3 { _ = try await fixtures.send("m\(number)", in: conversation, from: bob) }
            _ = try await fixtures.send("to bob", in: conversation, from: ada)
            let page = try await store.notifications(userId: ada.id, before: nil, limit: 2)
            #expect(page.items.count == 2)
            let rest = try await store.notifications(userId: ada.id, before: page.next, limit: 2)
            #expect(rest.items.count == 1)
            #expect(rest.next == nil)
            let bobs = try await store.notifications(userId: bob.id, before: nil, limit: 10).items
            // Someone else's id changes nothing.
            try await store.markNotificationsRead(userId: ada.id, ids: [page.items[0].id, bobs[0].id])
            #expect(
                try await store.notifications(userId: ada.id, before: nil, limit: 10).items.map(\.read) == [
                    true, false, false,
                ])
            #expect(try await store.notifications(userId: bob.id, before: nil, limit: 10).items.map(\.read) == [false])
            try await store.markNotificationsRead(userId: ada.id, ids: nil)
            #expect(try await store.notifications(userId: ada.id, before: nil, limit: 10).items.allSatisfy(\.read))
        }
    }

    @Test(arguments: StorageKind.available)
    func aReachableDatabaseIsHealthy(storage: StorageKind) async throws {
        try await storage.withStore { store in
            try await store.checkHealth()
        }
    }

    // MARK: The test run itself

    @Test(.enabled(if: ProcessInfo.processInfo.environment["CI"] == "true"))
    func continuousIntegrationRunsTheSuiteOnPostgreSQLToo() {
        #expect(PostgresTestDatabase.isAvailable, "CI must run through scripts/with-postgres.sh")
    }
}
