/// A token bucket: holds up to `capacity` tokens, refilled continuously at `perSecond`; each
/// action takes one.
package struct TokenBucket: Sendable {
    package let capacity: Double
    package let perSecond: Double
    private(set) var tokens: Double
    private var updated: ContinuousClock.Instant

    /// A full bucket of `perMinute` tokens, refilled at `perMinute` a minute.
    package init(perMinute: Int, now: ContinuousClock.Instant) {
        capacity = Double(perMinute)
        perSecond = Double(perMinute) / 60
        tokens = capacity
        updated = now
    }

    /// Takes a token: `nil` when there was one, else the whole seconds until there is (at least 1).
    mutating func take(now: ContinuousClock.Instant) -> Int? {
        refill(now: now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return max(1, Int(((1 - tokens) / perSecond).rounded(.up)))
    }

    /// Gives a token back (an action that turned out not to count).
    mutating func giveBack() {
        tokens = min(capacity, tokens + 1)
    }

    /// Whether the bucket is full at `now` (it can then be forgotten: a new one is the same).
    mutating func isFull(now: ContinuousClock.Instant) -> Bool {
        refill(now: now)
        return tokens >= capacity
    }

    private mutating func refill(now: ContinuousClock.Instant) {
        let elapsed = now - updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(capacity, tokens + seconds * perSecond)
        updated = now
    }
}
