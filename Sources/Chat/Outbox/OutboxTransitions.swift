import BazaarAPI
import Dependencies
import Networking

/// The outbox's decisions as pure functions: what an attempt's outcome makes of an entry, and how
/// long the worker waits after a pass. Nothing here writes, sends or reads a clock, so each rule
/// is tested as a table (`OutboxTransitionsTests`); ``Outbox`` only does the I/O.
enum OutboxTransitions {
    /// What a delivery pass does after one attempt.
    enum Next: Sendable, Equatable {
        /// Goes on with the next entry.
        case continuePass
        /// Stops the pass: the server cannot take messages now; the queue waits.
        case blockPass
    }

    /// An entry after one attempt to deliver it: sent (carrying the server's message), back to
    /// queued after a temporary failure (which blocks the pass: order is kept), or failed for good
    /// with the server's reason (the pass goes on).
    static func afterAttempt(_ entry: OutboxEntry, _ outcome: Result<Message, NetworkError>) -> (
        entry: OutboxEntry, next: Next
    ) {
        var entry = entry
        switch outcome {
        case .success(let message):
            entry.state = .sent(messageID: message.id)
            entry.message = message
            return (entry, .continuePass)
        case .failure(let error) where isTemporary(error):
            entry.state = .queued
            return (entry, .blockPass)
        case .failure(let error):
            entry.state = .failed(reason: reason(error))
            return (entry, .continuePass)
        }
    }

    /// Network failures, throttling, server errors, an ended session and a cancelled attempt keep
    /// the message queued.
    static func isTemporary(_ error: NetworkError) -> Bool {
        error.isRetryable || error.isSessionExpired || { if case .cancelled = error { true } else { false } }()
    }

    /// The server's own sentence when it gave one, else the error's.
    static func reason(_ error: NetworkError) -> String {
        if case .httpStatus(let failure) = error, let serverError = failure.serverError {
            return serverError.message
        }
        return error.description
    }
}

/// How long the delivery worker waits between passes: until nudged after a pass that drained
/// the queue; after a blocked one, the policy's backoff for the number of blocked passes in a row
/// (a drained pass starts the count again).
struct OutboxSchedule: Sendable, Equatable {
    /// What the worker waits for.
    enum Wait: Sendable, Equatable {
        /// A nudge (a new message, or a request that succeeded).
        case untilNudged
        /// A nudge, or this long.
        case backoff(Duration)
    }

    /// The backoff policy (its attempt and total limits are not used: the outbox never gives up).
    let policy: RetryPolicy
    /// Blocked passes in a row.
    private(set) var blockedPasses = 0

    /// A schedule on `policy`.
    init(policy: RetryPolicy) {
        self.policy = policy
    }

    /// The wait after a pass that drained the queue (`drained`) or was blocked; `random` draws jitter.
    mutating func afterPass(drained: Bool, random: (ClosedRange<Double>) -> Double) -> Wait {
        guard !drained else {
            blockedPasses = 0
            return .untilNudged
        }
        blockedPasses += 1
        return .backoff(policy.backoff(forRetry: blockedPasses, random: random))
    }
}
