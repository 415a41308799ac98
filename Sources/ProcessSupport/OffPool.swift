import Dispatch

/// Runs blocking work (a child process, a socket read) on a Dispatch queue instead of Swift's
/// cooperative pool, and awaits its result.
///
/// On a two-core machine the pool has two threads; a test that blocks one of them can starve an
/// in-process server that another test (or this one) needs to answer.
public func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try work() })
        }
    }
}
