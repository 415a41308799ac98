import BazaarStorage
import Synchronization

/// Runs an operation with a time limit that holds even when the operation ignores cancellation.
///
/// A task group would wait for its children when the time is up; a query stuck on a connection
/// the database dropped may never notice cancellation, and the request would hang with it. Here
/// the caller is answered at the deadline and the operation, cancelled, is left to end on its own.
enum Deadline {
    /// The result of `operation`, or `onTimeout()` thrown once `timeout` has passed.
    @discardableResult
    static func run<Result: Sendable>(
        _ timeout: Duration,
        onTimeout: @escaping @Sendable () -> any Error,
        _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let answered = Mutex(false)
        let tasks = Mutex<(work: Task<Void, Never>?, timer: Task<Void, Never>?)>((nil, nil))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                /// Resumes the caller once; the first of work, timer and cancellation wins.
                let finish: @Sendable (Swift.Result<Result, any Error>) -> Void = { result in
                    let first = answered.withLock { done in
                        defer { done = true }
                        return !done
                    }
                    guard first else { return }
                    let (work, timer) = tasks.withLock { $0 }
                    timer?.cancel()
                    if case .failure = result { work?.cancel() }
                    continuation.resume(with: result)
                }
                let work = Task {
                    do { finish(.success(try await operation())) } catch { finish(.failure(error)) }
                }
                let timer = Task {
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    finish(.failure(onTimeout()))
                }
                tasks.withLock { $0 = (work, timer) }
                if answered.withLock({ $0 }) { timer.cancel() }
            }
        } onCancel: {
            // The timer stays: should the work ignore cancellation, the deadline still answers.
            tasks.withLock { $0.work }?.cancel()
        }
    }
}
