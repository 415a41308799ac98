import BazaarStorage
import Foundation
import TestSupport
import Testing

@testable import BazaarPostgres
@testable import BazaarSQLite
@testable import BazaarServer

/// The stores' memory of active sessions never outlives a revocation, and a leased one
/// (PostgreSQL's) is believed only while its listener vouches for it.
@Suite("ActiveSessionMemo")
struct ActiveSessionMemoTests {
    @Test("a check that read the database before a revocation cannot remember the session after it")
    func aReadRacingARevocationIsNotRemembered() {
        let memo = ActiveSessionMemo()
        let before = memo.generation  // a check starts, reads "active" from the database…
        memo.forget("s1")  // …a revocation commits meanwhile…
        memo.remember("s1", readAt: before)  // …and the check's answer arrives late.
        #expect(memo.isKnownActive("s1") == false)
        memo.remember("s1", readAt: memo.generation)
        #expect(memo.isKnownActive("s1"))
        memo.forget("s1")
        #expect(memo.isKnownActive("s1") == false)
    }

    @Test("when full, it starts again rather than growing")
    func fullStartsAgain() {
        let memo = ActiveSessionMemo(capacity: 100)
        let generation = memo.generation
        for index in 0..<memo.capacity { memo.remember("s\(index)", readAt: generation) }
        #expect(memo.isKnownActive("s0"))
        memo.remember("new", readAt: generation)
        #expect(memo.isKnownActive("s0") == false)
        #expect(memo.isKnownActive("new"))
    }

    @Test("a leased memo is believed only within its lease, and a suspension forgets everything")
    func leasedMemo() {
        let memo = ActiveSessionMemo(leased: true)
        memo.remember("s1", readAt: memo.generation)
        #expect(memo.isKnownActive("s1") == false, "no lease yet: nothing is remembered")

        memo.trust(until: .now + .seconds(60))
        memo.remember("s1", readAt: memo.generation)
        #expect(memo.isKnownActive("s1"))

        let before = memo.generation  // a check reads "active" from the database…
        memo.suspend()  // …the listener loses its connection…
        memo.remember("s2", readAt: before)  // …and the check's answer arrives late.
        #expect(memo.isKnownActive("s1") == false)
        memo.remember("s2", readAt: memo.generation)
        #expect(memo.isKnownActive("s2") == false, "suspended: nothing is remembered until the next lease")

        memo.trust(until: .now + .seconds(60))
        #expect(memo.isKnownActive("s1") == false, "a suspension forgot what it knew")
        memo.remember("s3", readAt: memo.generation)
        #expect(memo.isKnownActive("s3"))

        let lapsing = ActiveSessionMemo(leased: true)
        lapsing.trust(until: .now + .seconds(60))
        lapsing.remember("s1", readAt: lapsing.generation)
        lapsing.suspend()
        lapsing.trust(until: .now - .seconds(1))  // a lease already over
        lapsing.remember("s1", readAt: lapsing.generation)
        #expect(lapsing.isKnownActive("s1") == false)
    }

    @Test("the listener vouches for the memo only once caught up, and never past a delivery still under way")
    func listenerVouchesFromItsDelivery() {
        let delivery = PostgresEventListener.Delivery()
        let pinged = ContinuousClock.now
        #expect(delivery.vouchedFrom(pinged: pinged) == nil, "before the first catch-up has ended")
        delivery.began()
        delivery.ended()
        #expect(delivery.vouchedFrom(pinged: pinged) == pinged, "idle: from when the ping was sent")
        delivery.began()  // a catch-up that has not ended (stuck, say)
        let later = ContinuousClock.now + .seconds(10)
        let vouched = delivery.vouchedFrom(pinged: later)
        #expect(vouched != nil && vouched! < later, "from when the catch-up under way began, not from the later ping")
        delivery.ended()
        #expect(delivery.vouchedFrom(pinged: later) == later)
    }

    @Test("an unleased memo (SQLite's) is believed from the start, and forgetting several forgets each")
    func unleasedMemo() {
        let memo = ActiveSessionMemo()
        for id in ["s1", "s2", "s3"] { memo.remember(id, readAt: memo.generation) }
        memo.forget(["s1", "s3"])
        #expect(memo.isKnownActive("s1") == false)
        #expect(memo.isKnownActive("s2"))
        #expect(memo.isKnownActive("s3") == false)
    }

    @Test("a session the store found active and then revoked is inactive at once, on every path")
    func revocationsReachTheMemo() async throws {
        try await StoreFixtures.withSQLiteStore { store in
            let fixtures = StoreFixtures(store)
            _ = try await fixtures.session("s1", refreshTokenHash: "t1")
            _ = try await fixtures.session("s2", refreshTokenHash: "t2", username: "bea")
            let now = fixtures.now
            #expect(try await store.isSessionActive(id: "s1"))
            #expect(try await store.isSessionActive(id: "s2"))
            #expect(store.activeSessions.isKnownActive("s1"))

            try await store.revokeSession(id: "s1", now: now)  // logout
            #expect(try await store.isSessionActive(id: "s1") == false)

            _ = try await store.rotateRefreshToken(hash: "t2", newHash: "t3", newExpiresAt: now + 60, now: now)
            #expect(
                try await store.rotateRefreshToken(hash: "t2", newHash: "t4", newExpiresAt: now + 60, now: now)
                    == .reused(sessionId: "s2"))
            #expect(try await store.isSessionActive(id: "s2") == false)
        }
    }
}
