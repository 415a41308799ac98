import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session
import Synchronization
import TestSupport
import Testing

@testable import Chat

/// The real outbox file with a switch that makes it refuse writes of chosen states: the far side
/// of the seam under test.
final class RefusingOutboxStore: OutboxStorage {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "disk I/O error" }
    }

    private let file: OutboxStore
    private let refusing = Mutex<(@Sendable (OutboxState) -> Bool)?>(nil)
    private let refusingInserts = Mutex(false)

    init(path: String) throws {
        file = try OutboxStore(path: path)
    }

    /// Refuses updates to states `matching` says yes to (nil: accept everything again).
    func refuseUpdates(_ matching: (@Sendable (OutboxState) -> Bool)?) { refusing.withLock { $0 = matching } }
    func refuseInserts(_ refuse: Bool) { refusingInserts.withLock { $0 = refuse } }

    func insert(_ entry: OutboxEntry, photos: [PhotoToSend]) throws {
        if refusingInserts.withLock({ $0 }) { throw Refused() }
        try file.insert(entry, photos: photos)
    }
    func photos(of id: String) throws -> [OutboxStore.StoredPhoto] { try file.photos(of: id) }
    func recordUpload(of id: String, position: Int, attachmentID: String, at time: Date) throws {
        try file.recordUpload(of: id, position: position, attachmentID: attachmentID, at: time)
    }
    func update(_ id: String, state: OutboxState, attempts: Int) throws {
        if refusing.withLock({ $0?(state) }) == true { throw Refused() }
        try file.update(id, state: state, attempts: attempts)
    }
    func setConversation(_ conversationID: String, for id: String) throws {
        try file.setConversation(conversationID, for: id)
    }
    func pending() throws -> [OutboxStore.Row] { try file.pending() }
    func all() throws -> [OutboxStore.Row] { try file.all() }
    func row(_ id: String) throws -> OutboxStore.Row? { try file.row(id) }
}

/// The real deliverer, counting the posts it makes (the server's idempotency would hide a double).
final class CountingDeliverer: ForwardingDeliverer {
    let real: BazaarOutboxDeliverer
    private let posts = Mutex(0)

    init(real: BazaarOutboxDeliverer) {
        self.real = real
    }

    func post(_ body: String, attachmentIDs: [String], to conversationID: String, idempotencyKey: String)
        async throws(NetworkError) -> Message
    {
        posts.withLock { $0 += 1 }
        return try await real.post(
            body, attachmentIDs: attachmentIDs, to: conversationID, idempotencyKey: idempotencyKey)
    }

    var count: Int { posts.withLock { $0 } }
}

@Suite("The outbox when its file refuses, and with passes asked for at once", .timeLimit(.minutes(2)))
struct OutboxStorageFailureTests {
    /// A buyer, a conversation with a seller, a folder for the outbox file, and an outbox over a
    /// refusing store in it.
    struct Scene {
        let deliverer: CountingDeliverer
        let conversationID: String
        let folder: URL
        let bodies: @Sendable () async throws -> [String]
        let store: RefusingOutboxStore
        let outbox: Outbox
    }

    static func scene(_ fixture: SessionFixture, _ name: String) async throws -> Scene {
        let buyer = try await fixture.starter().register(
            username: "\(name)b", password: "password123", displayName: "Buyer")
        let seller = try await fixture.raw.register("\(name)s")
        let conversation = try await fixture.raw.startConversation(with: buyer.userID, token: seller.tokens.accessToken)
        let raw = fixture.raw
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        let deliverer = CountingDeliverer(real: BazaarOutboxDeliverer(network: buyer.network))
        let store = try RefusingOutboxStore(path: folder.appendingPathComponent("refusing.sqlite").path)
        return Scene(
            deliverer: deliverer, conversationID: conversation.id, folder: folder,
            bodies: { try await OutboxTests.bodies(in: conversation.id, raw: raw, token: seller.tokens.accessToken) },
            store: store, outbox: Outbox(store: store, deliverer: deliverer, backoff: OutboxTests.quickBackoff))
    }

    @Test("a sent state the file refuses is kept and shown, written later, and never posted again")
    func refusedSentStateIsNotPostedAgain() async throws {
        try await SessionFixture.with { fixture in
            let scene = try await Self.scene(fixture, "sent")
            defer { try? FileManager.default.removeItem(at: scene.folder) }
            let (store, outbox) = (scene.store, scene.outbox)
            store.refuseUpdates { $0.isSent }
            let entry = try await outbox.enqueue("kept", to: .conversation(id: scene.conversationID))

            #expect(await outbox.flush(), "delivered: the queue is settled even though the file lags")
            #expect(try await outbox.entries().first?.state.isSent == true, "shown as sent from memory")
            #expect(try store.row(entry.id)?.entry.state == .sending, "the file still says sending")
            #expect(
                await outbox.storageFailure?.description
                    == "The outbox file could not write a message's state: disk I/O error.")
            #expect(await outbox.delivery(of: entry.id).state.isSent)

            #expect(await outbox.flush() == false, "blocked while the file refuses the kept state")
            store.refuseUpdates(nil)
            #expect(await outbox.flush())
            #expect(try store.row(entry.id)?.entry.state.isSent == true)
            #expect(await outbox.storageFailure == nil)
            #expect(scene.deliverer.count == 1)
            #expect(try await scene.bodies() == ["kept"])
        }
    }

    @Test("a message whose sending mark the file refuses is not sent until the file takes it")
    func refusedSendingMarkHoldsTheMessage() async throws {
        try await SessionFixture.with { fixture in
            let scene = try await Self.scene(fixture, "mark")
            defer { try? FileManager.default.removeItem(at: scene.folder) }
            let (store, outbox) = (scene.store, scene.outbox)
            store.refuseUpdates { $0 == OutboxState.sending }
            _ = try await outbox.enqueue("held", to: .conversation(id: scene.conversationID))

            #expect(await outbox.flush() == false)
            #expect(scene.deliverer.count == 0)
            #expect(try await outbox.entries().map(\.state) == [.queued])
            store.refuseUpdates(nil)
            #expect(await outbox.flush())
            #expect(scene.deliverer.count == 1)
            #expect(try await scene.bodies() == ["held"])
        }
    }

    @Test("a message the file refuses to queue is an error to the sender, and nothing is sent")
    func refusedInsertIsAnError() async throws {
        try await SessionFixture.with { fixture in
            let scene = try await Self.scene(fixture, "ins")
            defer { try? FileManager.default.removeItem(at: scene.folder) }
            let (store, outbox) = (scene.store, scene.outbox)
            store.refuseInserts(true)
            await #expect(throws: RefusingOutboxStore.Refused.self) {
                try await outbox.enqueue("lost?", to: .conversation(id: scene.conversationID))
            }
            #expect(await outbox.flush())
            #expect(scene.deliverer.count == 0)
            #expect(try await outbox.entries().isEmpty)
        }
    }

    @Test("two flushes and the worker at once post each of 20 messages exactly once")
    func concurrentFlushesPostOnce() async throws {
        try await SessionFixture.with { fixture in
            let scene = try await Self.scene(fixture, "two")
            defer { try? FileManager.default.removeItem(at: scene.folder) }
            let outbox = try Outbox(
                path: scene.folder.appendingPathComponent("outbox.sqlite").path, deliverer: scene.deliverer,
                backoff: OutboxTests.quickBackoff)
            for index in 1...20 {
                _ = try await outbox.enqueue("message \(index)", to: .conversation(id: scene.conversationID))
            }
            await outbox.start()
            async let first = outbox.flush()
            async let second = outbox.flush()
            let settled = await [first, second]
            #expect(settled == [true, true])
            await outbox.stop()
            #expect(scene.deliverer.count == 20)
            #expect(try await scene.bodies() == (1...20).map { "message \($0)" })
        }
    }
}
