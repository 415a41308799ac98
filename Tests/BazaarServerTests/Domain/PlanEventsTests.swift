import BazaarAPI
import BazaarDomain
import BazaarServerRuntime
import BazaarStorage
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import BazaarPostgres

/// A plan's live events commit with its rows: delivered (on PostgreSQL through the listener, as
/// on another replica) when the plan applies, never when its claim was taken and nothing was written.
@Suite("Write plans publish their events with their rows, on every backend")
struct PlanEventsTests {
    /// What reached this replica's sockets: each frame with its users, in order.
    final class RecordingSink: LiveEventSink {
        let frames = Mutex<[(frame: String, users: [String])]>([])
        /// One element per frame as it arrives, so a test waits for frames rather than for time.
        let arrivals: AsyncStream<Void>
        private let arrived: AsyncStream<Void>.Continuation

        init() {
            (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        }

        func deliver(_ event: LiveEvent, to userIds: [String]) async {
            if let frame = LiveEventFrame.encode(event) { record(frame, userIds) }
        }

        func deliver(frame: String, to userIds: [String]) async {
            record(frame, userIds)
        }

        func productsChanged() {}

        /// Sessions announced revoked, in order.
        let revoked = Mutex<[String]>([])

        func sessionsRevoked(_ sessionIds: [String]) async {
            revoked.withLock { $0 += sessionIds }
            arrived.yield()
        }

        /// Waits (at most 10 s) until `count` revocations have arrived; returns them.
        func waitForRevocations(_ count: Int) async -> [String] {
            await within(.seconds(10), else: ()) {
                for await _ in self.arrivals where self.revoked.withLock({ $0.count }) >= count { return }
            }
            return revoked.withLock { $0 }
        }

        private func record(_ frame: String, _ userIds: [String]) {
            frames.withLock { $0.append((frame, userIds.sorted())) }
            arrived.yield()
        }

        /// Waits (at most 10 s) until `count` frames have arrived; returns the frames so far.
        func wait(for count: Int) async -> [(frame: String, users: [String])] {
            await within(.seconds(10), else: ()) {
                for await _ in self.arrivals where self.frames.withLock({ $0.count }) >= count { return }
            }
            return frames.withLock { $0 }
        }
    }

    @Test(arguments: StorageKind.available)
    func aPlansEventsAreDeliveredOnceAndATakenClaimPublishesNothing(storage: StorageKind) async throws {
        try await Self.withListeningBackend(on: storage) { sink, backend in
            let fixtures = StoreFixtures(backend.store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let conversation = try await fixtures.conversation(bob, ada)

            guard
                case .created(let first) = try await fixtures.send(
                    fixtures.newMessage("first", in: conversation, from: bob, key: "k"))
            else {
                Issue.record("expected a new message")
                return
            }
            let afterFirst = await sink.wait(for: 2)
            #expect(afterFirst.count == 2)
            #expect(afterFirst.first?.frame.contains(first.id) == true, "message.created first")
            #expect(afterFirst.first?.users == [ada.id, bob.id].sorted(), "to both members")
            #expect(afterFirst.last?.frame.contains("notification.created") == true)
            #expect(afterFirst.last?.users == [ada.id], "the notification to the recipient only")

            // The same key again: a replay, nothing written, nothing published. The next new
            // message's events come right after the first message's.
            #expect(
                try await fixtures.send(fixtures.newMessage("first", in: conversation, from: bob, key: "k"))
                    == .replayed(first))
            guard
                case .created(let second) = try await fixtures.send(
                    fixtures.newMessage("second", in: conversation, from: bob))
            else {
                Issue.record("expected a new message")
                return
            }
            let all = await sink.wait(for: 4)
            #expect(all.count == 4, "the replay published nothing")
            #expect(all.dropFirst(2).first?.frame.contains(second.id) == true)
        }
    }

    @Test(
        "a revocation is announced once, when it commits: logout, a reuse, not a session revoked already",
        arguments: StorageKind.available)
    func revocationsAreAnnouncedOnce(storage: StorageKind) async throws {
        try await Self.withListeningBackend(on: storage) { sink, backend in
            let store = backend.store
            let ada = try await StoreFixtures(store).user("ada")
            let now = Date()
            for (session, token) in [("phone", "t-phone"), ("laptop", "t-laptop")] {
                _ = try await store.createSession(
                    id: session, userId: ada.id, passwordHash: "hash", refreshTokenHash: token, expiresAt: now + 3600,
                    userAgent: nil,
                    now: now)
            }
            try await store.revokeSession(id: "phone", now: now)
            try await store.revokeSession(id: "phone", now: now)  // revoked already: not announced again
            _ = try await store.rotateRefreshToken(
                hash: "t-laptop", newHash: "t-laptop-2", newExpiresAt: now + 3600, now: now)
            let reuse = try await store.rotateRefreshToken(
                hash: "t-laptop", newHash: "t-laptop-3", newExpiresAt: now + 3600, now: now)
            #expect(reuse == .reused(sessionId: "laptop"))
            #expect(await sink.waitForRevocations(2) == ["phone", "laptop"])
        }
    }

    /// Opens `storage` with a ``RecordingSink`` and, on PostgreSQL, runs the replica's listener
    /// (so events come back through it, as to any other replica) while `body` runs; stops both after.
    static func withListeningBackend(
        on storage: StorageKind, _ body: (RecordingSink, StorageBackend) async throws -> Void
    ) async throws {
        try await storage.withConfiguration { configuration in
            let sink = RecordingSink()
            let backend = try await StorageEngines.engine(for: configuration)
                .open(sink: sink, logger: TestServer.quietLogger(label: "plan-events"))
            let listeners = backend.services.compactMap { $0 as? PostgresEventListener }
            let listening = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for listener in listeners { group.addTask { try await listener.run() } }
                    try await group.waitForAll()
                }
            }
            do {
                try await body(sink, backend)
            } catch {
                listening.cancel()
                _ = await listening.result
                await backend.close()
                throw error
            }
            listening.cancel()
            _ = await listening.result
            await backend.close()
        }
    }
}
