import BazaarAPI
import BazaarServer
import BazaarServerRuntime
import Dependencies
import Foundation
import Networking
import Session
import TestSupport
import Testing

@testable import Chat

@Suite("The durable outbox against the real bazaar-server", .timeLimit(.minutes(2)))
struct OutboxTests {
    static let quickBackoff = RetryPolicy(baseDelay: .milliseconds(50), maxDelay: .milliseconds(200))

    /// Reads a conversation's message bodies, oldest first, as `token`'s user.
    static func bodies(in conversationID: String, raw: BazaarTestClient, token: String) async throws -> [String] {
        let page = try await raw.get(APIRoutes.messages.path(conversationID) + "?limit=100", token: token)
            .decode(Page<Message>.self)
        return page.items.reversed().map(\.body)
    }

    @Test("50 messages queued while the server is down arrive exactly once and in order when it starts")
    func queuedWhileServerIsDown() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = BazaarTestHarness.configuration(directory: directory)
        var server = try await BazaarServer.start(
            configuration: configuration, logger: TestServer.quietLogger(label: "outbox"))
        let raw = BazaarTestClient(baseURL: server.baseURL)
        let seller = try await raw.register("seller")
        var performer = NetworkRequestPerformer(retryPolicy: .never)
        performer.timeout = .seconds(5)
        let buyer = try await SessionStarter(
            client: .bazaar(baseURL: server.baseURL, performer: performer), tokenStore: InMemoryTokenStore()
        )
        .register(username: "buyer", password: "password123", displayName: "Buyer")
        let conversation = try await buyer.network.request(
            BazaarEndpoints.startConversation(StartConversationRequest(userId: seller.user.id)))
        await server.stop()

        let outbox = try Outbox(
            path: directory.appendingPathComponent("outbox.sqlite").path,
            deliverer: BazaarOutboxDeliverer(network: buyer.network), backoff: Self.quickBackoff)
        var queued: [OutboxEntry] = []
        for index in 1...50 {
            queued.append(try await outbox.enqueue("message \(index)", to: .conversation(id: conversation.id)))
        }
        #expect(await outbox.flush() == false, "the server is down: the queue is blocked, not emptied")
        #expect(try await outbox.entries().allSatisfy { $0.state == .queued })

        configuration.port = server.port
        server = try await BazaarServer.start(
            configuration: configuration, logger: TestServer.quietLogger(label: "outbox"))
        await outbox.start()
        let last = await outbox.delivery(of: queued[49].id)
        #expect(last.state.isSent)
        await outbox.stop()
        let bodies = try await Self.bodies(in: conversation.id, raw: raw, token: seller.tokens.accessToken)
        #expect(bodies == (1...50).map { "message \($0)" })
        #expect(try await outbox.entries().allSatisfy(\.state.isSent))
        await server.stop()
    }

    @Test("a permanent refusal marks that message failed with the server's reason and the queue goes on")
    func permanentFailureDoesNotBlock() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "bea", password: "password123", displayName: "Bea")
            let seller = try await fixture.raw.register("sid")
            let conversation = try await fixture.raw.startConversation(
                with: buyer.userID, token: seller.tokens.accessToken)
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let outbox = try Outbox(
                path: folder.appendingPathComponent("outbox.sqlite").path,
                deliverer: BazaarOutboxDeliverer(network: buyer.network), backoff: Self.quickBackoff)
            let lost = try await outbox.enqueue("to nowhere", to: .conversation(id: "no-such-conversation"))
            // Written as an older app wrote it, before the outbox checked lengths itself: the
            // server's 422 is what refuses it.
            let tooLong = OutboxEntry(
                id: "too-long", recipient: .conversation(id: conversation.id),
                body: String(repeating: "x", count: 4001),
                state: .queued, attempts: 0, createdAt: Date())
            try OutboxStore(path: folder.appendingPathComponent("outbox.sqlite").path).insert(tooLong, photos: [])
            let fine = try await outbox.enqueue("hello", to: .conversation(id: conversation.id))
            #expect(await outbox.flush())
            let entries = try await outbox.entries()
            guard case .failed(let reason404) = entries.first(where: { $0.id == lost.id })?.state,
                case .failed(let reason422) = entries.first(where: { $0.id == tooLong.id })?.state
            else {
                Issue.record("expected both refusals to be failures: \(entries.map(\.state))")
                return
            }
            #expect(!reason404.isEmpty && !reason422.isEmpty)
            #expect(entries.first { $0.id == fine.id }?.state.isSent == true)
            #expect(
                try await Self.bodies(in: conversation.id, raw: fixture.raw, token: seller.tokens.accessToken) == [
                    "hello"
                ])
        }
    }

    @Test("a message caught mid-send by a crash is sent again with its key and kept once by the server")
    func resendAfterCrashIsExactlyOnce() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "cat", password: "password123", displayName: "Cat")
            let seller = try await fixture.raw.register("sol")
            let conversation = try await fixture.raw.startConversation(
                with: buyer.userID, token: seller.tokens.accessToken)
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("outbox.sqlite").path
            // What a crash leaves: the entry written, marked sending, and the server already holding it.
            let store = try OutboxStore(path: path)
            let entry = OutboxEntry(
                id: "crashed-1", recipient: .conversation(id: conversation.id), body: "only once", state: .queued,
                attempts: 0, createdAt: Date())
            try store.insert(entry, photos: [])
            try store.update(entry.id, state: .sending, attempts: 1)
            let first = try await BazaarOutboxDeliverer(network: buyer.network)
                .post("only once", attachmentIDs: [], to: conversation.id, idempotencyKey: entry.id)

            let reopened = try Outbox(path: path, deliverer: BazaarOutboxDeliverer(network: buyer.network))
            #expect(await reopened.flush())
            #expect(try await reopened.entries().first?.state == .sent(messageID: first.id))
            #expect(
                try await Self.bodies(in: conversation.id, raw: fixture.raw, token: seller.tokens.accessToken) == [
                    "only once"
                ])
        }
    }

    @Test("states are observable: queued, sending, sent")
    func statesAreObservable() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "dan", password: "password123", displayName: "Dan")
            let seller = try await fixture.raw.register("sky")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let outbox = try Outbox(
                path: folder.appendingPathComponent("outbox.sqlite").path,
                deliverer: BazaarOutboxDeliverer(network: buyer.network))
            let updates = await outbox.updates()
            // A first message to a person: the conversation is found at delivery time.
            let entry = try await outbox.enqueue("first contact", to: .user(id: seller.user.id, productID: nil))
            #expect(await outbox.flush())
            var seen: [OutboxState] = []
            for await update in updates where update.id == entry.id {
                seen.append(update.state)
                if update.state.isFinal { break }
            }
            #expect(seen.count == 3)
            #expect(seen.prefix(2) == [.queued, .sending])
            #expect(seen.last?.isSent == true)
        }
    }

    @Test("the seed's sendNewMessage(with:completion:) reports the delivered message's id")
    func seedShapedSender() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "eli", password: "password123", displayName: "Eli")
            let seller = try await fixture.raw.register("sam")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let outbox = try Outbox(
                path: folder.appendingPathComponent("outbox.sqlite").path,
                deliverer: BazaarOutboxDeliverer(network: buyer.network))
            await outbox.start()
            let sender = ChatModule(session: buyer, outbox: outbox).messageSender(to: seller.user, about: nil)
            let messageID = await withCheckedContinuation { continuation in
                sender.sendNewMessage(with: "is it available?") { continuation.resume(returning: $0) }
            }
            await outbox.stop()
            #expect(messageID != nil)
        }
    }
}

@Suite("The outbox wakes when the server is back", .timeLimit(.minutes(2)))
struct OutboxNudgeTests {
    @Test("a successful request wakes a waiting outbox at once instead of after its backoff")
    func successfulRequestNudges() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = BazaarTestHarness.configuration(directory: directory)
        var server = try await BazaarServer.start(
            configuration: configuration, logger: TestServer.quietLogger(label: "nudge"))
        let nudger = OutboxNudger()
        var performer = NetworkRequestPerformer(interceptors: [nudger], retryPolicy: .never)
        performer.timeout = .seconds(5)
        let starter = SessionStarter(
            client: .bazaar(baseURL: server.baseURL, performer: performer), tokenStore: InMemoryTokenStore())
        let buyer = try await starter.register(username: "olga", password: "password123", displayName: "Olga")
        let seller = try await BazaarTestClient(baseURL: server.baseURL).register("otto")
        await server.stop()

        // A long backoff: without a nudge the outbox would sit for a minute.
        let outbox = try Outbox(
            path: directory.appendingPathComponent("outbox.sqlite").path,
            deliverer: BazaarOutboxDeliverer(network: buyer.network),
            backoff: RetryPolicy(baseDelay: .seconds(60), maxDelay: .seconds(60), jitter: false))
        nudger.attach(outbox)
        let entry = try await outbox.enqueue("hello again", to: .user(id: seller.user.id, productID: nil))
        await outbox.start()
        // The first attempt fails (the server is down) and the entry goes back to queued.
        var first: OutboxEntry?
        _ = try await eventually(within: .seconds(20)) {
            first = try await outbox.entries().first
            return first?.attempts ?? 0 >= 1 && first?.state == .queued
        }
        #expect(first?.state == .queued && first?.attempts == 1)

        configuration.port = server.port
        server = try await BazaarServer.start(
            configuration: configuration, logger: TestServer.quietLogger(label: "nudge"))
        let started = ContinuousClock.now
        _ = try await starter.publicNetwork.request(BazaarEndpoints.health)  // any request that succeeds
        let delivered = await outbox.delivery(of: entry.id)
        #expect(delivered.state.isSent)
        #expect(ContinuousClock.now - started < .seconds(30), "woken by the successful request, not the 60 s backoff")
        await outbox.stop()
        await server.stop()
    }
}

@Suite("Outbox edge cases")
struct OutboxEdgeCaseTests {
    /// A deliverer that is never reached: these tests do not send.
    struct Unreachable: OutboxDeliverer {
        func conversation(withUser userID: String, aboutProduct productID: String?) async throws(NetworkError) -> String
        {
            throw .noConnection(reason: "not in this test")
        }
        func upload(_ photo: PhotoToSend, to conversationID: String) async throws(NetworkError) -> Photo {
            throw .noConnection(reason: "not in this test")
        }
        func post(_ body: String, attachmentIDs: [String], to conversationID: String, idempotencyKey: String)
            async throws(NetworkError) -> Message
        {
            throw .noConnection(reason: "not in this test")
        }
    }

    @Test("waiting for an id the outbox never held answers at once, as failed")
    func unknownIDDoesNotHang() async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outbox = try Outbox(path: folder.appendingPathComponent("outbox.sqlite").path, deliverer: Unreachable())
        let entry = await outbox.delivery(of: "never-queued")
        #expect(entry.state == .failed(reason: "no such message in the outbox"))
    }

    @Test("queued messages survive reopening the file, in order")
    func survivesReopen() async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("outbox.sqlite").path
        do {
            let outbox = try Outbox(path: path, deliverer: Unreachable())
            for body in ["one", "two", "three"] { _ = try await outbox.enqueue(body, to: .conversation(id: "c")) }
        }
        let reopened = try Outbox(path: path, deliverer: Unreachable())
        #expect(try await reopened.entries().map(\.body) == ["one", "two", "three"])
        #expect(try await reopened.entries().allSatisfy { $0.state == .queued })
    }
}
