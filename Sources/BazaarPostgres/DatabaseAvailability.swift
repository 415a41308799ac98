import BazaarStorage
import Foundation
import Synchronization

/// Whether the database is reachable, as last seen, so requests can fail at once while it is not.
///
/// A connection failure marks it down for a short while (``backoff``): requests in that window
/// answer 503 without queueing for a connection that cannot come. The window ends by itself, so
/// a single failure never leaves a replica refusing work; the event listener marks it up as soon
/// as it has connected again.
package final class DatabaseAvailability: Sendable {
    private struct State {
        var downUntil: ContinuousClock.Instant?
        var reason = ""
    }

    private let state = Mutex(State())
    /// How long a failure makes requests fail fast.
    package let backoff: Duration

    /// Creates a tracker that fails fast for `backoff` after each failure.
    package init(backoff: Duration = .seconds(1)) {
        self.backoff = backoff
    }

    /// The reason requests are being refused now, or `nil` when they may go to the database.
    package var downReason: String? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let until = state.downUntil, now < until else { return nil }
            return state.reason
        }
    }

    /// Records that the database could not be reached.
    package func markDown(_ reason: String) {
        let until = ContinuousClock.now.advanced(by: backoff)
        state.withLock { state in
            state.downUntil = until
            state.reason = reason
        }
    }

    /// Records that a connection to the database works again.
    package func markUp() {
        state.withLock { $0.downUntil = nil }
    }
}
