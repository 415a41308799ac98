import Synchronization

/// Counts how often something happened, from any task: attempts, signals, callbacks.
public final class Counter: Sendable {
    private let count = Mutex(0)

    /// Makes a counter at zero.
    public init() {}

    /// The count so far.
    public var value: Int { count.withLock { $0 } }

    /// Adds one.
    public func increment() { count.withLock { $0 += 1 } }
}
