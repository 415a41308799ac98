import BazaarStorage
import Foundation
import Testing

@testable import BazaarPostgres

/// Every PostgreSQL statement runs under a ``Deadline``: the caller is answered at the deadline
/// even when the operation never notices cancellation, and a deadline costs one entry in a
/// shared sweeper, gone when the operation answers.
@Suite("Deadline")
struct DeadlineTests {
    struct TimedOut: Error {}

    @Test func anOperationThatIgnoresCancellationIsAnsweredAtItsDeadline() async throws {
        let sweeper = DeadlineSweeper(tick: .milliseconds(10))
        // An operation stuck until the test ends, deaf to cancellation (as a query on a dropped connection).
        let (stuck, release) = AsyncStream<Void>.makeStream()
        defer { release.finish() }
        let started = ContinuousClock.now
        await #expect(throws: TimedOut.self) {
            try await Deadline.run(.milliseconds(100), sweeper: sweeper, onTimeout: { TimedOut() }) {
                for await _ in stuck {}
                return 1
            }
        }
        let waited = started.duration(to: .now)
        #expect(waited >= .milliseconds(100), "answered before its deadline: \(waited)")
        #expect(waited < .seconds(2), "answered long after its deadline: \(waited)")
        #expect(sweeper.armedCount == 0)
    }

    @Test func operationsThatAnswerInTimeLeaveNoDeadlineArmed() async throws {
        let sweeper = DeadlineSweeper(tick: .milliseconds(10))
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await Deadline.run(.seconds(30), sweeper: sweeper, onTimeout: { TimedOut() }) { index }
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(results == Set(0..<200))
        #expect(sweeper.armedCount == 0)
    }

    @Test func anOperationsErrorReachesTheCaller() async throws {
        struct Refused: Error {}
        let sweeper = DeadlineSweeper(tick: .milliseconds(10))
        await #expect(throws: Refused.self) {
            try await Deadline.run(.seconds(30), sweeper: sweeper, onTimeout: { TimedOut() }) { () -> Int in
                throw Refused()
            }
        }
        #expect(sweeper.armedCount == 0)
    }

    @Test func cancellingTheCallerCancelsTheOperation() async throws {
        let sweeper = DeadlineSweeper(tick: .milliseconds(10))
        let caller = Task {
            try await Deadline.run(.seconds(30), sweeper: sweeper, onTimeout: { TimedOut() }) {
                try await Task.sleep(for: .seconds(60))  // cancellable: ends when cancelled
                return 1
            }
        }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(sweeper.armedCount == 0)
    }
}
