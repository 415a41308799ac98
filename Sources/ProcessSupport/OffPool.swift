import Foundation

/// Runs blocking work (a child process, a socket read) on a thread of its own instead of Swift's
/// cooperative pool, and awaits its result.
///
/// On Linux the cooperative pool *is* Dispatch's default-QoS root queue, one thread per core, so
/// neither `DispatchQueue.global()` nor a concurrent queue of our own (which targets that same
/// root queue) will do: work blocked there holds the pool's threads, and Dispatch adds threads
/// only slowly. That starved every in-process server of a test run for 5 to 7 s at a time while
/// the `bazaar` CLI tests waited for their child processes. A thread per call costs tens of
/// microseconds, which blocking work of this kind never notices.
public func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.name = "bazaar.offPool"
        thread.start()
    }
}
