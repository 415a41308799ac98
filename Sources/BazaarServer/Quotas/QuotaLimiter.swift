import Synchronization

/// Counts each user's (or, for reads, each client address's) actions against the
/// ``QuotaPolicy`` in token buckets, and answers `429` with `Retry-After` past a limit.
final class QuotaLimiter: Sendable {
    private struct Key: Hashable {
        let action: QuotaAction
        let subject: String
    }

    private let policy: QuotaPolicy
    private let buckets = Mutex([Key: TokenBucket]())
    /// Past this many buckets, full ones are forgotten (a new bucket is full anyway).
    static let pruneThreshold = 10_000

    init(policy: QuotaPolicy) {
        self.policy = policy
    }

    /// Counts one `action` by `subject` (a user id, or a client address for reads).
    ///
    /// - Throws: ``APIError`` `429 rate_limited` with `Retry-After` when the subject is over its quota.
    func charge(_ action: QuotaAction, by subject: String) throws(APIError) {
        guard let perMinute = policy.perMinute(action) else { return }
        let now = ContinuousClock.now
        let wait = buckets.withLock { buckets -> Int? in
            if buckets.count >= Self.pruneThreshold {
                buckets = buckets.filter { _, bucket in
                    var bucket = bucket
                    return !bucket.isFull(now: now)
                }
            }
            let key = Key(action: action, subject: subject)
            var bucket = buckets[key] ?? TokenBucket(perMinute: perMinute, now: now)
            let wait = bucket.take(now: now)
            buckets[key] = bucket
            return wait
        }
        if let wait { throw APIError.rateLimited(action, retryAfter: wait) }
    }

    /// Gives back a charge that turned out not to be a new action (an idempotent replay).
    func refund(_ action: QuotaAction, by subject: String) {
        buckets.withLock { $0[Key(action: action, subject: subject)]?.giveBack() }
    }
}
