/// Runs an operation against a deadline: whichever finishes first wins, the other is cancelled.
enum Deadline {
    /// Returns the operation's result, or throws ``NetworkError/timedOut`` once `timeout` has passed.
    ///
    /// Cancelling the calling task cancels the operation (it then fails with its own cancellation).
    static func run<Value: Sendable>(
        within timeout: Duration, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw Task.isCancelled ? NetworkError.cancelled : NetworkError.timedOut
            }
            return value
        }
    }
}
