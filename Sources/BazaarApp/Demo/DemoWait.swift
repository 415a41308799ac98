import Dependencies

/// How the demo waits for something that arrives live: the first value `pick` finds in a screen's
/// states, or an ``AppError`` saying `what` did not arrive within `limit`.
enum DemoWait {
    static func first<Content: Sendable & Equatable, Value: Sendable>(
        _ what: String, in states: AsyncStream<ScreenState<Content>>, within limit: Duration,
        _ pick: @escaping @Sendable (Content) -> Value?
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask {
                for await state in states {
                    if let content = state.content, let value = pick(content) { return value }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw AppError(.unreachable, "\(what) did not arrive within \(limit)")
            }
            return value
        }
    }
}
