import Synchronization

/// A `Clock` that moves only when a test says so: a sleep on it returns once ``advance(by:)``
/// has moved the time past its deadline (or its task is cancelled), so a test proves a wait of a
/// minute without taking one.
public final class ManualClock: Clock, Sendable {
    /// A point on the clock: the time advanced since it was made.
    public struct Instant: InstantProtocol {
        /// Time since the clock was made.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextId = 0
    }

    private let state = Mutex(State())

    /// A clock at zero.
    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting on the clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Whether `count` sleeps are waiting on the clock before `timeout` passes in real time: the
    /// way a test learns that the code under test has reached its wait (a backoff, a latency, a
    /// drain) before it moves the clock. Reading ``sleeperCount`` once instead races the task
    /// that is about to sleep.
    public func sleepers(reach count: Int = 1, within timeout: Duration = .seconds(10)) async -> Bool {
        await within(timeout, else: false) {
            while self.sleeperCount < count {
                do { try await Task.sleep(for: .milliseconds(1)) } catch { return false }
            }
            return true
        }
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextId += 1
            return state.nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let due = state.withLock { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if due { Task.isCancelled ? continuation.resume(throwing: CancellationError()) : continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time forward and wakes every sleep whose deadline it reaches.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.deadline <= state.now }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
