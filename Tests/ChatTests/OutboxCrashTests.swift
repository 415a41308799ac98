import BazaarAPI
import Chat
import Dependencies
import Foundation
import Networking
import Session
import TestSupport
import Testing

@Suite("The outbox survives a killed process", .timeLimit(.minutes(3)))
struct OutboxCrashTests {
    /// A buyer signed in as the app signs in (tokens in a config folder the CLI reads), a
    /// conversation with a seller, and the buyer's outbox where the app keeps it.
    struct Scene {
        let fixture: SessionFixture
        let config: URL
        let seller: AuthResponse
        let conversation: Conversation
        let outbox: Outbox

        static func make(_ fixture: SessionFixture, buyer name: String, seller sellerName: String, config: URL)
            async throws -> Scene
        {
            let buyer = try await SessionStarter(
                client: .bazaar(baseURL: fixture.baseURL),
                tokenStore: FileTokenStore(url: config.appendingPathComponent("tokens.json"))
            ).register(username: name, password: "password123", displayName: name.capitalized)
            let seller = try await fixture.raw.register(sellerName)
            let conversation = try await fixture.raw.startConversation(
                with: buyer.userID, token: seller.tokens.accessToken)
            // Where the app keeps this user's outbox: one per user in the config folder.
            let outboxFolder = config.appendingPathComponent("users/\(buyer.userID)", isDirectory: true)
            try FileManager.default.createDirectory(at: outboxFolder, withIntermediateDirectories: true)
            let outbox = try Outbox(
                path: outboxFolder.appendingPathComponent("outbox.sqlite").path,
                deliverer: BazaarOutboxDeliverer(network: buyer.network))
            return Scene(fixture: fixture, config: config, seller: seller, conversation: conversation, outbox: outbox)
        }

        /// Runs `bazaar outbox flush`, kills it with SIGKILL once `settled` messages are sent, then
        /// runs it again to the end; records an issue unless the kill came mid-queue.
        func killMidFlushThenFinish(after settled: Int, of count: Int) async throws {
            let arguments = [
                "outbox", "flush", "--server", fixture.baseURL.absoluteString, "--config-dir", config.path,
            ]
            let first = try BazaarCLI().start(arguments)
            var sent = 0
            let deadline = ContinuousClock.now + .seconds(60)
            while sent < settled, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
                sent = try await outbox.entries().count { $0.state.isFinal }
            }
            first.kill9()
            let killed = await first.wait()
            #expect(killed.exitCode == 128 + SIGKILL, "killed mid-delivery: \(killed.stdout) \(killed.stderr)")
            #expect(
                try await outbox.entries().count { $0.state.isFinal } < count, "the kill came before the queue was done"
            )
            let second = try await BazaarCLI().run(arguments)
            #expect(second.exitCode == 0, "\(second.stdout) \(second.stderr)")
        }

        /// Every message in the conversation as the seller reads it, oldest first, paging back
        /// through all of them.
        func messages() async throws -> [Message] {
            var messages: [Message] = []
            var cursor: String?
            repeat {
                let query = "?limit=100" + (cursor.map { "&before=\($0)" } ?? "")
                let page = try await fixture.raw.get(
                    APIRoutes.messages.path(conversation.id) + query, token: seller.tokens.accessToken
                ).decode(Page<Message>.self)
                messages += page.items
                cursor = page.nextCursor
            } while cursor != nil
            return messages.reversed()
        }
    }

    static func withScene(buyer: String, seller: String, _ body: (Scene) async throws -> Void) async throws {
        try await SessionFixture.with { fixture in
            let config = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: config) }
            try await body(try await Scene.make(fixture, buyer: buyer, seller: seller, config: config))
        }
    }

    @Test(
        "SIGKILL in the middle of 'bazaar outbox flush', then a second run: each message on the server exactly once, in order"
    )
    func killedMidDelivery() async throws {
        try await Self.withScene(buyer: "pia", seller: "pat") { scene in
            let count = 300
            for index in 1...count {
                _ = try await scene.outbox.enqueue("note \(index)", to: .conversation(id: scene.conversation.id))
            }
            try await scene.killMidFlushThenFinish(after: 40, of: count)
            #expect(try await scene.messages().map(\.body) == (1...count).map { "note \($0)" })
        }
    }

    @Test(
        "SIGKILL while 'bazaar outbox flush' sends messages with photos: after a second run, each message once, each with its one photo"
    )
    func killedMidDeliveryWithPhotos() async throws {
        try await Self.withScene(buyer: "pola", seller: "pavel") { scene in
            // Within the 30 photo uploads a minute a user may make, one made twice included.
            let count = 25
            let photo = try #require(PhotoToSend(sniffing: TestImages.png(width: 64, height: 48, grain: 0.3)))
            for index in 1...count {
                _ = try await scene.outbox.enqueue(
                    "photo \(index)", photos: [photo], to: .conversation(id: scene.conversation.id))
            }
            try await scene.killMidFlushThenFinish(after: 3, of: count)
            let messages = try await scene.messages()
            #expect(messages.map(\.body) == (1...count).map { "photo \($0)" })
            #expect(messages.allSatisfy { $0.attachments.count == 1 })
            #expect(Set(messages.flatMap { $0.attachments.map(\.id) }).count == count, "no photo sent twice")
        }
    }
}
