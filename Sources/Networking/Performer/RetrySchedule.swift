import Foundation
import HTTPTypes

/// The retry layer's decisions as a pure state machine: an event in (an attempt's outcome, with
/// the time left before the request's deadline and the wall-clock time), the next step out. It
/// performs nothing and reads no clock, so every path is tested as a table of events
/// (`RetryScheduleTests`); ``RetryLayer`` only sends, sleeps and reads its clock.
struct RetrySchedule: Sendable, Equatable {
    /// What the layer does next.
    enum Step: Sendable, Equatable {
        /// Sends an attempt that may take at most this long.
        case attempt(timeout: Duration)
        /// Waits this long, then asks again before the next attempt.
        case wait(Duration)
        /// Answers with the last attempt's outcome (success or error), after this many attempts.
        case finish(attempts: Int)
        /// Fails the request: its deadline has passed.
        case timedOut
    }

    /// The request's policy.
    let policy: RetryPolicy
    /// Whether the request may be sent more than once (``RetryRules/mayRetry(_:)``).
    let mayRetry: Bool
    /// The longest one attempt may take, before the deadline shortens it.
    let attemptTimeout: Duration
    /// The attempt about to be made or just made (1 for the first).
    private(set) var attempt = 1
    /// The time spent waiting between attempts so far.
    private(set) var waited = Duration.zero

    /// A schedule for one request.
    init(policy: RetryPolicy, mayRetry: Bool, attemptTimeout: Duration) {
        self.policy = policy
        self.mayRetry = mayRetry
        self.attemptTimeout = attemptTimeout
    }

    /// Before an attempt: send it with the timeout the deadline leaves (`left` is `nil` without a
    /// deadline), or give up when nothing is left.
    func beforeAttempt(left: Duration?) -> Step {
        guard let left else { return .attempt(timeout: attemptTimeout) }
        guard left > .zero else { return .timedOut }
        return .attempt(timeout: min(attemptTimeout, left))
    }

    /// After an attempt: wait and try again, or finish with its outcome. A wait is chosen only
    /// when the request may be repeated, attempts remain, the outcome is worth another (a
    /// network failure, a timeout, 408, 429 or 5xx; ``RetryRules``), the policy's time budget
    /// allows it, and it ends before the deadline (`left`, `nil` without one). `now` reads a
    /// `Retry-After` date; `random` draws the jitter.
    mutating func afterAttempt(
        _ outcome: Result<TransportResponse, NetworkError>, left: Duration?, now: Date,
        random: (ClosedRange<Double>) -> Double
    ) -> Step {
        guard mayRetry, attempt < policy.maxAttempts,
            let delay = RetryRules.delay(
                after: outcome, policy: policy, retry: attempt, waited: waited, now: now, random: random),
            left.map({ delay < $0 }) ?? true
        else { return .finish(attempts: attempt) }
        waited += delay
        attempt += 1
        return .wait(delay)
    }
}
