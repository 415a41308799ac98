import BazaarAPI
import BazaarStorage
import Foundation
import TestSupport
import Testing

@testable import BazaarPostgres
@testable import BazaarSQLite
@testable import BazaarServer

/// The SQLite store's memory of each conversation's newest messages answers exactly what the
/// database would, however sends and reads interleave.
@Suite("NewestMessagesMemo")
struct NewestMessagesMemoTests {
    private static func message(_ id: String, in conversation: String = "c1") -> Message {
        Message(
            id: id, conversationId: conversation, senderId: "ada", body: id, createdAt: Date(timeIntervalSince1970: 0))
    }

    /// A page of `ids` at `positions`, newest first, stored into `memo` as read with its current mark.
    private static func remember(
        _ ids: [String], at positions: [Int64], hasOlder: Bool = false, limit: Int, in memo: NewestMessagesMemo
    ) {
        memo.remember(
            Slice(items: ids.map { message($0) }, next: hasOlder ? positions.last : nil), positions: positions,
            conversationId: "c1", limit: limit, members: ["ada", "bo"], readAt: memo.readMark(for: "c1"))
    }

    @Test("a read that fetched the page before a send cannot store it after that send")
    func aReadRacingASendIsNotRemembered() {
        let memo = NewestMessagesMemo()
        let before = memo.readMark(for: "c1")  // a read starts and fetches the page from the database…
        memo.add(Self.message("m3"), at: 3)  // …a send commits meanwhile…
        memo.remember(  // …and the read's page, without the new message, arrives late.
            Slice(items: [Self.message("m2")], next: nil), positions: [2], conversationId: "c1", limit: 10,
            members: ["ada", "bo"], readAt: before)
        #expect(memo.slice(conversationId: "c1", limit: 10, viewerId: "ada") == nil)
    }

    @Test("sends to other conversations during a read do not keep it from storing its page")
    func sendsElsewhereDoNotStarveARead() throws {
        let memo = NewestMessagesMemo()
        // Find a conversation on another stripe than c1's, as nearly every other conversation is.
        let other = try #require(
            (0..<64).lazy.map { "c\($0 + 2)" }.first { memo.readMark(for: $0) != memo.readMark(for: "c1") })
        let before = memo.readMark(for: "c1")  // a read of c1 starts…
        for position in Int64(1)...100 {  // …while a busy server commits sends elsewhere…
            memo.add(Self.message("m\(position)", in: other), at: position)
        }
        memo.forget(conversationIds: [other])
        memo.remember(  // …and its page is still c1's newest: it is kept.
            Slice(items: [Self.message("m2")], next: nil), positions: [2], conversationId: "c1", limit: 10,
            members: ["ada", "bo"], readAt: before)
        #expect(memo.slice(conversationId: "c1", limit: 10, viewerId: "ada")?.items.map(\.id) == ["m2"])
    }

    @Test("a sent message takes its place by position, once, and a full page drops its oldest")
    func addKeepsPositionOrder() throws {
        let memo = NewestMessagesMemo()
        Self.remember(["m5", "m3"], at: [5, 3], limit: 3, in: memo)
        memo.add(Self.message("m4"), at: 4)  // sends can commit in one batch and be added out of order
        memo.add(Self.message("m4"), at: 4)  // a read that already saw it, then the add: still once
        var slice = try #require(memo.slice(conversationId: "c1", limit: 3, viewerId: "bo"))
        #expect(slice.items.map(\.id) == ["m5", "m4", "m3"])
        #expect(slice.next == nil)

        memo.add(Self.message("m6"), at: 6)
        slice = try #require(memo.slice(conversationId: "c1", limit: 3, viewerId: "ada"))
        #expect(slice.items.map(\.id) == ["m6", "m5", "m4"])
        #expect(slice.next == 4)  // m3 is on the next page now
    }

    @Test("a message older than a full page makes the page say older ones follow")
    func anOlderMessageOnlyMarksTheFullPage() throws {
        let memo = NewestMessagesMemo()
        Self.remember(["m9", "m8"], at: [9, 8], limit: 2, in: memo)
        memo.add(Self.message("m7"), at: 7)
        let slice = try #require(memo.slice(conversationId: "c1", limit: 2, viewerId: "ada"))
        #expect(slice.items.map(\.id) == ["m9", "m8"])
        #expect(slice.next == 8)
    }

    @Test("a page answers only the conversation's two members")
    func onlyMembersAreAnswered() {
        let memo = NewestMessagesMemo()
        Self.remember(["m1"], at: [1], limit: 50, in: memo)
        #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada") != nil)
        #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "eve") == nil)
        #expect(memo.slice(conversationId: "c1", limit: 20, viewerId: "ada") == nil)
    }

    @Test("a leased memo (PostgreSQL's) neither answers nor remembers until its listener vouches for it")
    func aLeasedMemoIsBelievedOnlyWithinItsLease() throws {
        let memo = NewestMessagesMemo(leased: true)
        Self.remember(["m1"], at: [1], limit: 50, in: memo)
        memo.trust(until: .now + .seconds(60))
        #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada") == nil)  // not stored before

        Self.remember(["m1"], at: [1], limit: 50, in: memo)
        #expect(try #require(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada")).items.map(\.id) == ["m1"])

        memo.suspend()  // the listener lost its connection: changes elsewhere may go unheard
        #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada") == nil)
        Self.remember(["m1"], at: [1], limit: 50, in: memo)
        memo.trust(until: .now - .seconds(1))  // a lease that has run out believes nothing either
        #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada") == nil)
    }

    @Test("while a write of the store to a conversation is under way, its page is not answered")
    func aPageWaitsForTheStoresOwnWrite() async throws {
        let memo = NewestMessagesMemo()
        Self.remember(["m1"], at: [1], limit: 50, in: memo)
        try await memo.whileWriting(["c1"], othersUnknown: false) {
            // Committed, its event perhaps told a socket already, but the memo has not heard yet.
            #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada") == nil)
            memo.add(Self.message("m2"), at: 2)
        }
        let slice = try #require(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada"))
        #expect(slice.items.map(\.id) == ["m2", "m1"])

        try await memo.whileWriting([], othersUnknown: true) {  // a removal: any conversation
            #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada") == nil)
        }
        #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada") != nil)
    }

    @Test("a write of the store that fails, committed or not, leaves no page held")
    func aFailedWriteForgetsEveryPage() async {
        struct Lost: Error {}
        let memo = NewestMessagesMemo()
        Self.remember(["m1"], at: [1], limit: 50, in: memo)
        await #expect(throws: Lost.self) {
            try await memo.whileWriting(["c2"], othersUnknown: false) { throw Lost() }
        }
        #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada") == nil)
    }

    @Test("forgetting conversations drops their pages alone, and a read begun before cannot store")
    func forgettingDropsTheNamedConversations() {
        let memo = NewestMessagesMemo()
        for conversation in ["c1", "c2", "c3"] {
            memo.remember(
                Slice(items: [Self.message("m1", in: conversation)], next: nil), positions: [1],
                conversationId: conversation, limit: 50, members: ["ada", "bo"],
                readAt: memo.readMark(for: conversation))
        }
        let before = memo.readMark(for: "c1")
        memo.forget(conversationIds: ["c1", "c3"])
        #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada") == nil)
        #expect(memo.slice(conversationId: "c2", limit: 50, viewerId: "ada") != nil)
        #expect(memo.slice(conversationId: "c3", limit: 50, viewerId: "ada") == nil)
        memo.remember(
            Slice(items: [Self.message("m0")], next: nil), positions: [0], conversationId: "c1", limit: 50,
            members: ["ada", "bo"], readAt: before)
        #expect(memo.slice(conversationId: "c1", limit: 50, viewerId: "ada") == nil)

        let beforeAll = memo.readMark(for: "c2")
        memo.forgetAll()
        #expect(memo.slice(conversationId: "c2", limit: 50, viewerId: "ada") == nil)
        memo.remember(  // a read begun before everything was forgotten cannot store either
            Slice(items: [Self.message("m1", in: "c2")], next: nil), positions: [1], conversationId: "c2", limit: 50,
            members: ["ada", "bo"], readAt: beforeAll)
        #expect(memo.slice(conversationId: "c2", limit: 50, viewerId: "ada") == nil)
    }

    @Test("past its byte limit, it starts again rather than growing")
    func fullStartsAgain() throws {
        let weight = NewestMessagesMemo.weight(of: Self.message("m1"))
        let memo = NewestMessagesMemo(byteLimit: 4 * weight)
        for limit in 1...4 { Self.remember(["m1"], at: [1], limit: limit, in: memo) }
        #expect(memo.slice(conversationId: "c1", limit: 1, viewerId: "ada") != nil)
        Self.remember(["m1"], at: [1], limit: 4, in: memo)  // replacing a page weighs nothing more
        #expect(memo.slice(conversationId: "c1", limit: 1, viewerId: "ada") != nil)
        Self.remember(["m1"], at: [1], limit: 5, in: memo)
        #expect(memo.slice(conversationId: "c1", limit: 1, viewerId: "ada") == nil)
        #expect(memo.slice(conversationId: "c1", limit: 5, viewerId: "ada") != nil)

        memo.add(Self.message("m2"), at: 2)  // the one page held grows to two messages: still within
        #expect(try #require(memo.slice(conversationId: "c1", limit: 5, viewerId: "ada")).items.count == 2)
        for position in 3...4 { memo.add(Self.message("m\(position)"), at: Int64(position)) }
        memo.add(Self.message("m5"), at: 5)  // five messages weigh more than the limit
        #expect(memo.slice(conversationId: "c1", limit: 5, viewerId: "ada") == nil)
    }

    @Test("a page heavier than the whole limit is not held")
    func aPageHeavierThanTheLimitIsNotHeld() {
        let memo = NewestMessagesMemo(byteLimit: NewestMessagesMemo.weight(of: Self.message("m1")))
        Self.remember(["m2", "m1"], at: [2, 1], limit: 2, in: memo)
        #expect(memo.slice(conversationId: "c1", limit: 2, viewerId: "ada") == nil)
    }

    /// The store's memo, believed for the test's length (PostgreSQL's would be by its listener).
    private static func heldPages(of store: any BazaarStore) throws -> NewestMessagesMemo {
        if let sqlite = store as? SQLiteStore { return sqlite.newestMessages }
        let postgres = try #require(store as? PostgresStore)
        postgres.newestMessages.trust(until: .now + .seconds(600))
        return postgres.newestMessages
    }

    @Test(
        "after concurrent sends and reads, every held page equals the database's",
        arguments: StorageKind.available)
    func concurrentSendsAndReadsMatchTheDatabase(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let memo = try Self.heldPages(of: store)
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bo = try await fixtures.user("bo")
            let eve = try await fixtures.user("eve")
            let conversations = [try await fixtures.conversation(ada, bo), try await fixtures.conversation(ada, eve)]
            let limits = [5, 25, 45]
            for conversation in conversations {
                _ = try await fixtures.send("first", in: conversation, from: ada)
                for limit in limits {  // read once, so the pages are held before the sends start
                    _ = try await store.messages(
                        conversationId: conversation.id, viewerId: ada.id, before: nil, limit: limit)
                }
            }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<120 {
                    let conversation = conversations[index % 2]
                    group.addTask { _ = try await fixtures.send("message \(index)", in: conversation, from: ada) }
                    group.addTask {
                        let slice = try #require(
                            try await store.messages(
                                conversationId: conversation.id, viewerId: ada.id, before: nil, limit: limits[index % 3]
                            ))
                        let ids = slice.items.map(\.id)
                        #expect(Set(ids).count == ids.count, "a message appears once")
                    }
                }
                try await group.waitForAll()
            }

            for conversation in conversations {
                for limit in limits {
                    let held = try #require(
                        memo.slice(conversationId: conversation.id, limit: limit, viewerId: ada.id))
                    // `before: Int64.max` reads the same newest page from the database itself.
                    let stored = try #require(
                        try await store.messages(
                            conversationId: conversation.id, viewerId: ada.id, before: .max, limit: limit))
                    #expect(held.items == stored.items)
                    #expect(held.next == stored.next)
                    #expect(held.items.count == limit)
                }
            }
            let other = conversations[1]
            #expect(try await store.messages(conversationId: other.id, viewerId: bo.id, before: nil, limit: 5) == nil)
        }
    }
}
