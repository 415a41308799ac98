import Foundation
import Synchronization

/// A clock tests move by hand, so token expiry is proven without sleeping.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    /// Starts at `start` (by default the real time now).
    public init(start: Date = Date()) {
        current = Mutex(start)
    }

    /// The clock's time.
    public func now() -> Date {
        current.withLock { $0 }
    }

    /// Moves the clock forward.
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        current.withLock { $0 = $0.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18) }
    }
}
