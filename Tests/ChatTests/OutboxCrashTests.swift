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
    /// Every message body in a conversation, oldest first, paging back through all of them.
    static func allBodies(in conversationID: String, raw: BazaarTestClient, token: String) async throws -> [String] {
        var bodies: [String] = []
        var cursor: String?
        repeat {
            let query = "?limit=100" + (cursor.map { "&before=\($0)" } ?? "")
            let page = try await raw.get(APIRoutes.messages.path(conversationID) + query, token: token)
                .decode(Page<Message>.self)
            bodies += page.items.map(\.body)
            cursor = page.nextCursor
        } while cursor != nil
        return bodies.reversed()
    }

    @Test(
        "SIGKILL in the middle of 'bazaar outbox flush', then a second run: each message on the server exactly once, in order"
    )
    func killedMidDelivery() async throws {
        try await SessionFixture.with { fixture in
            let config = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: config) }
            let buyer = try await SessionStarter(
                client: .bazaar(baseURL: fixture.baseURL),
                tokenStore: FileTokenStore(url: config.appendingPathComponent("tokens.json"))
            ).register(username: "pia", password: "password123", displayName: "Pia")
            let seller = try await fixture.raw.register("pat")
            let conversation = try await fixture.raw.startConversation(
                with: buyer.userID, token: seller.tokens.accessToken)

            // Where the app keeps this user's outbox: one per user in the config folder.
            let outboxFolder = config.appendingPathComponent("users/\(buyer.userID)", isDirectory: true)
            try FileManager.default.createDirectory(at: outboxFolder, withIntermediateDirectories: true)
            let outbox = try Outbox(
                path: outboxFolder.appendingPathComponent("outbox.sqlite").path,
                deliverer: BazaarOutboxDeliverer(network: buyer.network))
            let count = 300
            for index in 1...count {
                _ = try await outbox.enqueue("note \(index)", to: .conversation(id: conversation.id))
            }

            let arguments = [
                "outbox", "flush", "--server", fixture.baseURL.absoluteString, "--config-dir", config.path,
            ]
            let first = try BazaarCLI().start(arguments)
            var sent = 0
            let deadline = ContinuousClock.now + .seconds(60)
            while sent < 40, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
                sent = try await outbox.entries().count { $0.state.isFinal }
            }
            first.kill9()
            let killed = await first.wait()
            #expect(killed.exitCode == 128 + SIGKILL, "killed mid-delivery: \(killed.stdout) \(killed.stderr)")
            let settledBeforeRestart = try await outbox.entries().count { $0.state.isFinal }
            #expect(settledBeforeRestart < count, "the kill came before the queue was done")

            let second = try await BazaarCLI().run(arguments)
            #expect(second.exitCode == 0, "\(second.stdout) \(second.stderr)")
            let bodies = try await Self.allBodies(
                in: conversation.id, raw: fixture.raw, token: seller.tokens.accessToken)
            #expect(bodies == (1...count).map { "note \($0)" })
        }
    }

    @Test(
        "SIGKILL while 'bazaar outbox flush' sends messages with photos: after a second run, each message once, each with its one photo"
    )
    func killedMidDeliveryWithPhotos() async throws {
        try await SessionFixture.with { fixture in
            let config = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: config) }
            let buyer = try await SessionStarter(
                client: .bazaar(baseURL: fixture.baseURL),
                tokenStore: FileTokenStore(url: config.appendingPathComponent("tokens.json"))
            ).register(username: "pola", password: "password123", displayName: "Pola")
            let seller = try await fixture.raw.register("pavel")
            let conversation = try await fixture.raw.startConversation(
                with: buyer.userID, token: seller.tokens.accessToken)
            let outboxFolder = config.appendingPathComponent("users/\(buyer.userID)", isDirectory: true)
            try FileManager.default.createDirectory(at: outboxFolder, withIntermediateDirectories: true)
            let outbox = try Outbox(
                path: outboxFolder.appendingPathComponent("outbox.sqlite").path,
                deliverer: BazaarOutboxDeliverer(network: buyer.network))
            // Within the 30 photo uploads a minute a user may make, one made twice included.
            let count = 25
            let photo = try #require(PhotoToSend(sniffing: TestImages.png(width: 64, height: 48, grain: 0.3)))
            for index in 1...count {
                _ = try await outbox.enqueue("photo \(index)", photos: [photo], to: .conversation(id: conversation.id))
            }

            let arguments = [
                "outbox", "flush", "--server", fixture.baseURL.absoluteString, "--config-dir", config.path,
            ]
            let first = try BazaarCLI().start(arguments)
            var sent = 0
            let deadline = ContinuousClock.now + .seconds(60)
            while sent < 3, ContinuousClock.now < deadline {
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
            let messages = try await fixture.raw.get(
                APIRoutes.messages.path(conversation.id) + "?limit=100", token: seller.tokens.accessToken
            ).decode(Page<Message>.self).items.reversed()
            #expect(messages.map(\.body) == (1...count).map { "photo \($0)" })
            #expect(messages.allSatisfy { $0.attachments.count == 1 })
            #expect(Set(messages.flatMap { $0.attachments.map(\.id) }).count == count, "no photo sent twice")
        }
    }
}
