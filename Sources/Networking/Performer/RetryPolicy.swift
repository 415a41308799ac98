/// How failed requests are retried: which outcomes, how often, and how long to wait.
///
/// Only safe requests are ever retried: an idempotent method, or one that carries an
/// `Idempotency-Key` header so the server can recognise the repeat. The waits grow exponentially
/// with full jitter, honour `Retry-After`, and the whole sequence is bounded in attempts and in time.
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts in all, the first included; 1 means never retry.
    public var maxAttempts: Int
    /// The wait before the first retry, before jitter; it doubles on each retry.
    public var baseDelay: Duration
    /// The longest single wait.
    public var maxDelay: Duration
    /// The most time all waits together may take; a `Retry-After` beyond it ends the retries.
    public var maxTotalDelay: Duration
    /// Whether waits are randomised (full jitter) so that many clients do not retry in step.
    public var jitter: Bool

    /// Makes a policy.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(200),
        maxDelay: Duration = .seconds(5),
        maxTotalDelay: Duration = .seconds(15),
        jitter: Bool = true
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxTotalDelay = maxTotalDelay
        self.jitter = jitter
    }

    /// Three attempts, 200 ms doubling, at most 15 s of waiting.
    public static let `default` = RetryPolicy()
    /// A single attempt.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The backoff before retry number `retry` (1 for the first retry), before `Retry-After`.
    ///
    /// With jitter, a uniform value in `0...cap` where `cap = min(maxDelay, baseDelay * 2^(retry-1))`.
    public func backoff(forRetry retry: Int, random: (ClosedRange<Double>) -> Double) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let cap = min(maxDelay, baseDelay * (1 << exponent))
        guard jitter else { return cap }
        return cap * random(0...1)
    }
}
