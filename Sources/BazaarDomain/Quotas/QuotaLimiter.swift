import Synchronization

/// Counts each user's (or, for reads, each client address's) actions against the
/// ``QuotaPolicy`` in token buckets, and answers `429` with `Retry-After` past a limit.
package final class QuotaLimiter: Sendable {
    private struct Key: Hashable {
        let action: QuotaAction
        let subject: String
    }

    private struct Buckets {
        var byKey: [Key: TokenBucket] = [:]
        /// The count at which full buckets are next forgotten: twice what a prune kept, so a
        /// prune (a scan of every bucket) happens once per doubling, never on every charge.
        var pruneAt = QuotaLimiter.pruneThreshold
    }

    private let policy: QuotaPolicy
    private let buckets = Mutex(Buckets())
    /// Past this many buckets, full ones are forgotten (a new bucket is full anyway).
    static let pruneThreshold = 10_000

    package init(policy: QuotaPolicy) {
        self.policy = policy
    }

    /// Whether `action` has a quota at all: when it has none, a caller may skip working out the
    /// subject (a client address from headers, say) that ``charge(_:by:)`` would ignore.
    package func limits(_ action: QuotaAction) -> Bool {
        policy.perMinute(action) != nil
    }

    /// Counts one `action` by `subject` (a user id, or a client address for reads).
    ///
    /// - Throws: ``DomainError/rateLimited(_:retryAfter:)`` with `Retry-After` when the subject is over its quota.
    package func charge(_ action: QuotaAction, by subject: String) throws(DomainError) {
        guard let perMinute = policy.perMinute(action) else { return }
        let now = ContinuousClock.now
        let wait = buckets.withLock { buckets -> Int? in
            if buckets.byKey.count >= buckets.pruneAt {
                buckets.byKey = buckets.byKey.filter { _, bucket in
                    var bucket = bucket
                    return !bucket.isFull(now: now)
                }
                buckets.pruneAt = max(Self.pruneThreshold, 2 * buckets.byKey.count)
            }
            let key = Key(action: action, subject: subject)
            var bucket = buckets.byKey[key] ?? TokenBucket(perMinute: perMinute, now: now)
            let wait = bucket.take(now: now)
            buckets.byKey[key] = bucket
            return wait
        }
        if let wait { throw DomainError.rateLimited(action, retryAfter: wait) }
    }

    /// Gives back a charge that turned out not to be a new action (an idempotent replay).
    package func refund(_ action: QuotaAction, by subject: String) {
        buckets.withLock { $0.byKey[Key(action: action, subject: subject)]?.giveBack() }
    }
}
