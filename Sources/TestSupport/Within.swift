/// What `body` returns, or `fallback` when `timeout` passes first (`body` is then cancelled): a
/// test's bounded wait for something asynchronous, such as a stream's first matching element.
public func within<Result: Sendable>(
    _ timeout: Duration, else fallback: Result, _ body: @escaping @Sendable () async -> Result
) async -> Result {
    await withTaskGroup(of: Result.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return fallback
        }
        let first = await group.next() ?? fallback
        group.cancelAll()
        return first
    }
}
