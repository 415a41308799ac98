import BazaarAPI
import BazaarDomain
import BazaarServerRuntime
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// Rows that serve a purpose only for a while are deleted after their stated period, on both
/// engines, and nothing else is (issue 32, hole 9).
@Suite("Retention")
struct RetentionTests {
    @Test(
        "a prune deletes old idempotency keys, spent and expired refresh tokens, ended sessions and old notifications, and keeps the rest",
        arguments: StorageKind.available)
    func pruneDeletesWhatIsPastItsPeriod(storage: StorageKind) async throws {
        try await storage.withConfiguration { configuration in
            let backend = try await StorageEngines.openStore(
                configuration: configuration, logger: TestServer.quietLogger(label: "retention"))
            defer { Task { await backend.close() } }
            let store = backend.store
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let conversation = try await fixtures.conversation(ada, bob)
            // A message with its idempotency key and a notification for Bob, at the fixture's time.
            _ = try await fixtures.send(fixtures.newMessage("hello", in: conversation, from: ada, key: "k1"))
            let now = fixtures.now
            // A session revoked at once; one whose token is spent (its successor alive); one live.
            for (session, token) in [("revoked", "t-revoked"), ("rotated", "t-old"), ("live", "t-live")] {
                _ = try await store.createSession(
                    id: session, userId: ada.id, passwordHash: "hash", refreshTokenHash: token,
                    expiresAt: now + .days(60), userAgent: nil,
                    now: now)
            }
            try await store.revokeSession(id: "revoked", now: now)
            _ = try await store.rotateRefreshToken(
                hash: "t-old", newHash: "t-new", newExpiresAt: now + .days(60), now: now)

            // A day later nothing is past its period.
            #expect(try await store.prune(RetentionPolicy().cutoffs(at: now + .days(1))) == PruneCounts())

            // 31 days later: the key (7 days), the spent token (7 days), the revoked session and its
            // token (30 days) go; the live sessions and the notification (90 days) stay.
            let month = try await store.prune(RetentionPolicy().cutoffs(at: now + .days(31)))
            #expect(month == PruneCounts(idempotencyKeys: 1, refreshTokens: 2, sessions: 1, notifications: 0))
            #expect(try await store.isSessionActive(id: "live"))
            #expect(try await store.isSessionActive(id: "rotated"))
            let stillThere = try await store.rotateRefreshToken(
                hash: "t-new", newHash: "t-newer", newExpiresAt: now + .days(60), now: now + .days(31))
            #expect(stillThere == .rotated(userId: ada.id, sessionId: "rotated"))

            // 91 days later: every token has expired (60 days), so the sessions without one go;
            // and the notification.
            let quarter = try await store.prune(RetentionPolicy().cutoffs(at: now + .days(91)))
            #expect(quarter.notifications == 1)
            #expect(quarter.sessions == 2)
            #expect(try await !store.isSessionActive(id: "live"))
        }
    }
}

extension Date {
    /// `self` plus `duration`.
    fileprivate static func + (date: Date, duration: Duration) -> Date {
        date.addingTimeInterval(duration.timeInterval)
    }

    @Test(
        "a chat photo never sent goes after a day with every size; one sent stays",
        arguments: StorageKind.available)
    func unsentChatPhotosGoAfterADay(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let conversation = try await fixtures.conversation(ada, bob)
            let sent = try await fixtures.services.attachments.upload(
                fixtures.sizes("sent"), to: conversation.id, by: ada.id)
            let unsent = try await fixtures.services.attachments.upload(
                fixtures.sizes("unsent"), to: conversation.id, by: ada.id)
            _ = try await fixtures.services.messages.send(
                "", attachmentIds: [sent.id], idempotencyKey: "k", to: conversation.id, from: ada.id)
            let now = fixtures.now
            #expect(try await store.prune(RetentionPolicy().cutoffs(at: now + .seconds(3600))).attachments == 0)
            #expect(try await store.prune(RetentionPolicy().cutoffs(at: now + .days(2))).attachments == 1)
            #expect(try await store.attachments(ids: [sent.id, unsent.id]).map(\.id) == [sent.id])
            #expect(
                try await store.attachmentPhoto(
                    conversationId: conversation.id, attachmentId: unsent.id, viewerId: ada.id, size: .thumb) == nil)
            #expect(
                try await store.attachmentPhoto(
                    conversationId: conversation.id, attachmentId: sent.id, viewerId: bob.id, size: .thumb)?.data
                    == fixtures.sizes("sent").thumb.data)
        }
    }
}
