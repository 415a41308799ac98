import BazaarAPI
import BazaarStorage
import Foundation

/// Blocking another user, written once for every storage engine.
///
/// A member blocks anyone who has an account (a deleted or unknown one is 404) but themselves
/// (422); blocking again, or unblocking someone not blocked, changes nothing. What a block
/// prevents is ``BlockRule``'s.
public struct BlockService: Sendable {
    let store: any BazaarStore
    let quotas: QuotaLimiter
    let clock: DomainClock

    /// A service over `store`, charging `quotas`, on `clock`.
    package init(store: any BazaarStore, quotas: QuotaLimiter, clock: DomainClock) {
        self.store = store
        self.quotas = quotas
        self.clock = clock
    }

    /// `callerId` blocks `userId`.
    public func block(_ userId: String, by callerId: String) async throws {
        try await checkTarget(userId, of: callerId)
        try quotas.charge(.edit, by: callerId)
        try await store.saveBlock(blockerId: callerId, blockedId: userId, now: clock.now())
    }

    /// `callerId` stops blocking `userId`.
    public func unblock(_ userId: String, by callerId: String) async throws {
        try await checkTarget(userId, of: callerId)
        try quotas.charge(.edit, by: callerId)
        try await store.removeBlock(blockerId: callerId, blockedId: userId)
    }

    /// The people `callerId` blocked, most recently blocked first.
    public func blocked(by callerId: String, before position: Int64?, limit: Int) async throws -> Slice<User> {
        try await store.blockedUsers(by: callerId, before: position, limit: limit)
    }

    private func checkTarget(_ userId: String, of callerId: String) async throws {
        guard userId != callerId else { throw DomainError.invalidField("id", "must be another user, not yourself") }
        guard try await store.existingUser(id: userId) != nil else {
            throw DomainError.notFound("The user")
        }
    }
}
