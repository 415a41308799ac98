import BazaarStorage
import Synchronization

/// Runs an operation with a time limit that holds even when the operation ignores cancellation.
///
/// A task group would wait for its children when the time is up; a query stuck on a connection
/// the database dropped may never notice cancellation, and the request would hang with it. Here
/// the caller is answered at the deadline and the operation, cancelled, is left to end on its own.
///
/// Every statement of the PostgreSQL engine runs under one, so arming it must cost next to
/// nothing: a deadline is an entry in ``DeadlineSweeper/shared``, not a sleeping task of its own
/// (a `Task.sleep` per statement put a dispatch timer, a wake-up of libdispatch's timer thread
/// and two more executor jobs on every query: about a tenth of the server's CPU on history pages).
enum Deadline {
    /// The result of `operation`, or `onTimeout()` thrown once `timeout` has passed (up to one
    /// sweep, ``DeadlineSweeper/tick``, later).
    @discardableResult
    static func run<Result: Sendable>(
        _ timeout: Duration,
        sweeper: DeadlineSweeper = .shared,
        onTimeout: @escaping @Sendable () -> any Error,
        _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let race = Mutex(Race())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                /// Resumes the caller once; the first of work, deadline and cancellation wins.
                let finish: @Sendable (Swift.Result<Result, any Error>) -> Void = { result in
                    let (first, work, entry) = race.withLock { race in
                        defer { race.answered = true }
                        return (!race.answered, race.work, race.entry)
                    }
                    guard first else { return }
                    if let entry { sweeper.disarm(entry) }
                    if case .failure = result { work?.cancel() }
                    continuation.resume(with: result)
                }
                let entry = sweeper.arm(after: timeout) { finish(.failure(onTimeout())) }
                let work = Task {
                    do { finish(.success(try await operation())) } catch { finish(.failure(error)) }
                }
                let (answered, cancelled) = race.withLock { race in
                    race.work = work
                    race.entry = entry
                    return (race.answered, race.cancelled)
                }
                // Answered before the entry was recorded: `finish` could not disarm it.
                if answered { sweeper.disarm(entry) }
                // Cancelled before the work existed (a task cancelled on entry runs its handler first).
                if cancelled { work.cancel() }
            }
        } onCancel: {
            // The deadline stays armed: should the work ignore cancellation, it still answers.
            race.withLock { race in
                race.cancelled = true
                return race.work
            }?.cancel()
        }
    }

    /// Who has answered, and what to cancel or disarm when someone does.
    private struct Race {
        var answered = false
        /// The caller was cancelled (possibly before ``work`` was made).
        var cancelled = false
        var work: Task<Void, Never>?
        var entry: DeadlineSweeper.Entry?
    }
}

/// The deadlines of every pending operation, checked by one task that wakes every ``tick``
/// while any is armed (and sleeps for good when none is).
///
/// Arming and disarming are a dictionary insert and removal under a lock: no timer, no task, no
/// system call per operation. The price is precision: an expiry runs up to one tick after its
/// deadline, which is nothing beside the seconds a database operation is given.
final class DeadlineSweeper: Sendable {
    /// The sweeper the PostgreSQL engine's deadlines use.
    static let shared = DeadlineSweeper(tick: .milliseconds(50))

    /// One armed deadline, for ``disarm(_:)``.
    struct Entry: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    /// How often armed deadlines are checked.
    let tick: Duration

    private struct Armed {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var nextId: UInt64 = 0
        var armed: [UInt64: Armed] = [:]
        /// Whether a sweeping task is running (or about to).
        var sweeping = false
    }

    private let state = Mutex(State())

    /// A sweeper that checks its deadlines every `tick`.
    init(tick: Duration) {
        self.tick = tick
    }

    /// Calls `expire` once `timeout` has passed, unless ``disarm(_:)`` comes first.
    func arm(after timeout: Duration, expire: @escaping @Sendable () -> Void) -> Entry {
        let armed = Armed(deadline: .now + timeout, expire: expire)
        let (id, startSweeping) = state.withLock { state in
            let id = state.nextId
            state.nextId &+= 1
            state.armed[id] = armed
            defer { state.sweeping = true }
            return (id, !state.sweeping)
        }
        // Detached: the sweeper outlives the request that armed it and takes none of its task-locals.
        if startSweeping { Task.detached { await self.sweep() } }
        return Entry(id: id)
    }

    /// Forgets an armed deadline (nothing happens if it has already expired).
    func disarm(_ entry: Entry) {
        _ = state.withLock { $0.armed.removeValue(forKey: entry.id) }
    }

    /// How many deadlines are armed.
    var armedCount: Int {
        state.withLock { $0.armed.count }
    }

    /// Expires what is due every tick; returns once nothing is armed.
    private func sweep() async {
        while true {
            // A cancelled sleep (it is never cancelled: the task is unstructured) only sweeps early.
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let (due, idle) = state.withLock { state -> ([Armed], Bool) in
                let dueIds = state.armed.compactMap { $0.value.deadline <= now ? $0.key : nil }
                let due = dueIds.compactMap { state.armed.removeValue(forKey: $0) }
                if state.armed.isEmpty { state.sweeping = false }
                return (due, !state.sweeping)
            }
            for armed in due { armed.expire() }
            if idle { return }
        }
    }
}
