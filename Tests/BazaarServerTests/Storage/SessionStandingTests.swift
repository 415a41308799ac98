import BazaarAPI
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// A session starts only for an account in good standing whose password is still the one the
/// sign-in checked, on both engines: a sign-in that overlaps a suspension, an erasure or a password
/// change leaves no session behind.
@Suite("A session starts only for the account as it was checked")
struct SessionStandingTests {
    @Test(arguments: StorageKind.available)
    func noSessionForAChangedSuspendedOrErasedAccount(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            func start(_ id: String, hash: String = "hash") async throws -> Bool {
                try await store.createSession(
                    id: id, userId: ada.id, passwordHash: hash, refreshTokenHash: "r-\(id)",
                    expiresAt: fixtures.now + 60, userAgent: nil, now: fixtures.now)
            }
            #expect(try await start("first"))
            #expect(try await store.isSessionActive(id: "first"))
            // The password changed after the sign-in checked the old one.
            try await store.setPassword(userId: ada.id, hash: "new hash", keepingSession: "first", now: fixtures.now)
            #expect(try await !start("stale"))
            #expect(try await store.session(id: "stale") == nil)
            #expect(try await start("fresh", hash: "new hash"))

            _ = try await store.apply(WritePlan([.suspendUser(id: ada.id)]), now: fixtures.now)
            #expect(try await !store.isSessionActive(id: "fresh"), "the suspension revoked it")
            #expect(try await !start("suspended", hash: "new hash"))

            let bob = try await fixtures.user("bob")
            try await store.eraseAccount(userId: bob.id, now: fixtures.now)
            let afterErasure = try await store.createSession(
                id: "gone", userId: bob.id, passwordHash: "hash", refreshTokenHash: "r-gone",
                expiresAt: fixtures.now + 60, userAgent: nil, now: fixtures.now)
            #expect(!afterErasure)
        }
    }
}
