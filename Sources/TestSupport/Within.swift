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

/// The first element of `stream` that `matches`, or `nil` when none comes within `timeout`: a
/// test's wait for a state a logic controller publishes (a live message, an offer arriving).
public func first<Element: Sendable>(
    _ stream: AsyncStream<Element>, within timeout: Duration,
    where matches: @escaping @Sendable (Element) -> Bool
) async -> Element? {
    await within(timeout, else: nil) {
        for await element in stream where matches(element) { return element }
        return nil
    }
}

/// Whether `condition` holds within `limit`, asked at once and then every `interval` until it does:
/// a test's bounded wait on something it can only ask about, not be told of (a `/metrics` value, a
/// replica's answer, a row on disk). The condition is asked once more at the deadline, so a slow
/// machine costs a late answer, not a false one.
public func eventually(
    within limit: Duration, every interval: Duration = .milliseconds(20), _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while true {
        if try await condition() { return true }
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: interval)
    }
}
