import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("offPool")
struct OffPoolTests {
    @Test("blocked work never holds the cooperative pool: a pool task can still release it")
    func blockedWorkLeavesThePoolFree() async throws {
        // More blocked items than the pool has threads: if offPool ran them on the pool's own
        // threads, the loop below (a pool task) could not run until they gave up waiting. With
        // DispatchQueue.global() it ran only after ~5 s (Dispatch adds threads slowly), so each
        // item gives up after 2 s; on threads of their own they are released within milliseconds.
        let count = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        let gate = DispatchSemaphore(value: 0)
        let started = Counter()
        async let released: [Bool] = withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await offPool {
                        started.increment()
                        return gate.wait(timeout: .now() + 2) == .success
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        while started.value < count { try await Task.sleep(for: .milliseconds(5)) }
        for _ in 0..<count { gate.signal() }
        let outcomes = try await released
        #expect(outcomes.count == count)
        #expect(outcomes.allSatisfy { $0 }, "every blocked item was released by the pool task, none timed out")
    }
}
