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

@Suite("Photos through the outbox", .timeLimit(.minutes(2)))
struct OutboxPhotoTests {
    /// Every message of a conversation as its other member reads it, oldest first.
    static func messages(in conversationID: String, raw: BazaarTestClient, token: String) async throws -> [Message] {
        try await raw.get(APIRoutes.messages.path(conversationID) + "?limit=100", token: token)
            .decode(Page<Message>.self).items.reversed()
    }

    @Test(
        "a photo picked while the server is down is sent once it is back: one message carrying it, readable by the other member",
        arguments: StorageKind.available)
    func photoQueuedOfflineIsSentOnceWhenTheServerReturns(storage: StorageKind) async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await storage.withConfiguration { configuration in
            var configuration = configuration
            var server = try await BazaarServer.start(
                configuration: configuration, logger: TestServer.quietLogger(label: "photo-outbox"))
            let starter = SessionStarter(client: .bazaar(baseURL: server.baseURL), tokenStore: InMemoryTokenStore())
            let buyer = try await starter.register(username: "penny", password: "password123", displayName: "Penny")
            let raw = BazaarTestClient(baseURL: server.baseURL)
            let seller = try await raw.register("percy")
            let conversation = try await raw.startConversation(with: buyer.userID, token: seller.tokens.accessToken)
            await server.stop()

            let path = directory.appendingPathComponent("outbox.sqlite").path
            let outbox = try Outbox(
                path: path, deliverer: BazaarOutboxDeliverer(network: buyer.network), backoff: OutboxTests.quickBackoff)
            let photo = try #require(PhotoToSend(sniffing: TestImages.jpeg(width: 800, height: 600, grain: 0.2)))
            let entry = try await outbox.enqueue("the scratch", photos: [photo], to: .conversation(id: conversation.id))
            #expect(entry.photoCount == 1)
            #expect(await outbox.flush() == false, "the server is down: the message waits")
            #expect(try await outbox.entries().first?.state == .queued)

            configuration.port = server.port
            server = try await BazaarServer.start(
                configuration: configuration, logger: TestServer.quietLogger(label: "photo-outbox"))
            #expect(await outbox.flush())
            #expect(await outbox.flush(), "a second pass sends nothing again")
            let delivered = try await Self.messages(in: conversation.id, raw: raw, token: seller.tokens.accessToken)
            #expect(delivered.map(\.body) == ["the scratch"])
            let attachment = try #require(delivered.first?.attachments.first)
            #expect(delivered.first?.attachments.count == 1)
            #expect(attachment.width == 800 && attachment.height == 600)
            let thumb = try await raw.get(attachment.thumbURL, token: seller.tokens.accessToken)
            #expect(thumb.status == 200)
            #expect(
                try OutboxStore(path: path).photos(of: entry.id).isEmpty,
                "the photo's bytes leave the outbox once it is delivered")
            await server.stop()
        }
    }

    @Test("an upload older than the server keeps unsent photos is made again before the message goes")
    func staleUploadIsMadeAgain() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "quinn", password: "password123", displayName: "Quinn")
            let seller = try await fixture.raw.register("quill")
            let conversation = try await fixture.raw.startConversation(
                with: buyer.userID, token: seller.tokens.accessToken)
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("outbox.sqlite").path
            let outbox = try Outbox(path: path, deliverer: BazaarOutboxDeliverer(network: buyer.network))
            let photo = try #require(PhotoToSend(sniffing: TestImages.png()))
            let stale = try await outbox.enqueue("", photos: [photo], to: .conversation(id: conversation.id))
            let fresh = try await outbox.enqueue("fresh", photos: [photo], to: .conversation(id: conversation.id))
            // Uploads the server no longer knows (ids it never made): one two days old, one a minute old.
            let store = try OutboxStore(path: path)
            try store.recordUpload(
                of: stale.id, position: 0, attachmentID: UUID().uuidString.lowercased(),
                at: Date().addingTimeInterval(-2 * 86_400))
            try store.recordUpload(
                of: fresh.id, position: 0, attachmentID: UUID().uuidString.lowercased(),
                at: Date().addingTimeInterval(-60))
            #expect(await outbox.flush())
            let entries = try await outbox.entries()
            #expect(entries.first { $0.id == stale.id }?.state.isSent == true, "the old upload was made again")
            guard case .failed = entries.first(where: { $0.id == fresh.id })?.state else {
                Issue.record("a recent upload is trusted, and the server refuses the id it does not know")
                return
            }
            let delivered = try await Self.messages(
                in: conversation.id, raw: fixture.raw, token: seller.tokens.accessToken)
            #expect(delivered.map(\.attachments.count) == [1])
            #expect(delivered.map(\.body) == [""], "a photo alone is sent without text")
        }
    }

    @Test("a message the server would refuse is not queued: nothing, too much text, more than four photos")
    func refusedDraftsAreNotWritten() async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outbox = try Outbox(
            path: folder.appendingPathComponent("outbox.sqlite").path, deliverer: OutboxEdgeCaseTests.Unreachable())
        let photo = try #require(PhotoToSend(sniffing: TestImages.png(width: 8, height: 8)))
        let target = OutboxRecipient.conversation(id: "c")
        await #expect(throws: MessageDraftError.empty) { try await outbox.enqueue("  \n", to: target) }
        await #expect(throws: MessageDraftError.tooLong) {
            try await outbox.enqueue(String(repeating: "x", count: 4001), to: target)
        }
        await #expect(throws: MessageDraftError.tooManyPhotos(5)) {
            try await outbox.enqueue("five", photos: Array(repeating: photo, count: 5), to: target)
        }
        #expect(try await outbox.entries().isEmpty)
        let four = try await outbox.enqueue("  ", photos: Array(repeating: photo, count: 4), to: target)
        #expect(four.body == "" && four.photoCount == 4)
    }
}
