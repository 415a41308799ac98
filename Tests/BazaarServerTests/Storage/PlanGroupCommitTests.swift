import BazaarAPI
import BazaarStorage
import Foundation
import Synchronization
import Testing

@testable import BazaarPostgres

/// How PostgreSQL's group commit forms statements, with the statement itself replaced by a
/// recorder (the statement's SQL runs against PostgreSQL in the storage, domain and replica suites).
@Suite("PostgreSQL group commit")
struct PlanGroupCommitTests {
    /// Records the groups it is given; the first `held` calls wait until `release()`.
    final class Recorder: Sendable {
        let groups = Mutex<[[String]]>([])
        let gate: AsyncStream<Void>
        let opener: AsyncStream<Void>.Continuation
        let held: Int
        let failWhen: @Sendable ([String]) -> (any Error)?

        init(held: Int = 0, failWhen: @escaping @Sendable ([String]) -> (any Error)? = { _ in nil }) {
            (gate, opener) = AsyncStream<Void>.makeStream()
            self.held = held
            self.failWhen = failWhen
        }

        func apply(_ plans: [(plan: WritePlan, now: Date)]) async throws -> [Bool] {
            let bodies = plans.map(Self.body)
            let call = groups.withLock { groups in
                groups.append(bodies)
                return groups.count
            }
            if call <= held {
                for await _ in gate { break }
            }
            if let error = failWhen(bodies) { throw error }
            return plans.map { _ in true }
        }

        func release() { opener.yield() }

        static func body(_ plan: (plan: WritePlan, now: Date)) -> String {
            for case .appendMessage(let message) in plan.plan.writes { return message.body }
            return "?"
        }
    }

    struct Refused: Error {}

    static func plan(_ body: String, in conversation: String) -> WritePlan {
        WritePlan([
            .appendMessage(
                Message(
                    id: UUID().uuidString, conversationId: conversation, senderId: "ada", body: body,
                    createdAt: Date(timeIntervalSince1970: 0)))
        ])
    }

    /// Yields until `condition` holds; records an issue after 5 seconds instead of hanging.
    static func yieldUntil(_ what: String, _ condition: () async -> Bool) async {
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("never came to pass: \(what)")
                return
            }
            await Task.yield()
        }
    }

    static func waitUntil(_ commit: PlanGroupCommit, holds waiting: Int) async {
        await yieldUntil("\(waiting) plans waiting") { await commit.waitingCount >= waiting }
    }

    @Test func aPlanAloneIsAppliedAtOnceInAStatementOfItsOwn() async throws {
        let recorder = Recorder()
        let commit = PlanGroupCommit(maximumInFlight: 2, maximumPlans: 8, apply: recorder.apply)
        #expect(try await commit.submit(Self.plan("a", in: "c1"), now: Date()))
        #expect(recorder.groups.withLock { $0 } == [["a"]])
    }

    @Test func plansArrivingWhileAStatementRunsShareTheNextOne() async throws {
        let recorder = Recorder(held: 1)
        let commit = PlanGroupCommit(maximumInFlight: 1, maximumPlans: 8, apply: recorder.apply)
        async let first = commit.submit(Self.plan("a", in: "c1"), now: Date())
        await Self.waitUntilCalled(recorder, times: 1)
        async let second = commit.submit(Self.plan("b", in: "c2"), now: Date())
        async let third = commit.submit(Self.plan("c", in: "c3"), now: Date())
        async let fourth = commit.submit(Self.plan("d", in: "c4"), now: Date())
        await Self.waitUntil(commit, holds: 3)
        recorder.release()
        _ = try await (first, second, third, fourth)
        let groups = recorder.groups.withLock { $0 }
        #expect(groups.count == 2)
        #expect(groups.first == ["a"])
        #expect(Set(groups.last ?? []) == ["b", "c", "d"])
    }

    @Test func pastTheWaitingBoundAPlanIsRefusedAtOnceAsUnavailableAndTheOthersStillApply() async throws {
        let recorder = Recorder(held: 1)
        let commit = PlanGroupCommit(maximumInFlight: 1, maximumPlans: 8, maximumWaiting: 2, apply: recorder.apply)
        async let first = commit.submit(Self.plan("a", in: "c1"), now: Date())
        await Self.waitUntilCalled(recorder, times: 1)
        async let second = commit.submit(Self.plan("b", in: "c2"), now: Date())
        async let third = commit.submit(Self.plan("c", in: "c3"), now: Date())
        await Self.waitUntil(commit, holds: 2)
        await #expect(throws: StoreError.unavailable("too many writes waiting")) {
            try await commit.submit(Self.plan("d", in: "c4"), now: Date())
        }
        recorder.release()
        _ = try await (first, second, third)
        #expect(recorder.groups.withLock { $0 }.flatMap { $0 }.sorted() == ["a", "b", "c"])
    }

    @Test func plansOnOneConversationNeverShareOrOverlapAStatementAndKeepTheirOrder() async throws {
        let recorder = Recorder(held: 1)
        let commit = PlanGroupCommit(maximumInFlight: 3, maximumPlans: 8, apply: recorder.apply)
        async let first = commit.submit(Self.plan("one-1", in: "c1"), now: Date())
        await Self.waitUntilCalled(recorder, times: 1)
        // While one-1 runs, its conversation's later plans wait; another conversation's does not.
        async let second = commit.submit(Self.plan("one-2", in: "c1"), now: Date())
        await Self.waitUntil(commit, holds: 1)
        async let other = commit.submit(Self.plan("two-1", in: "c2"), now: Date())
        #expect(try await other)
        async let third = commit.submit(Self.plan("one-3", in: "c1"), now: Date())
        await Self.waitUntil(commit, holds: 2)
        recorder.release()
        _ = try await (first, second, third)
        let groups = recorder.groups.withLock { $0 }
        let ofOne = groups.filter { $0.contains { $0.hasPrefix("one") } }
        #expect(ofOne == [["one-1"], ["one-2"], ["one-3"]])
        #expect(groups.contains(["two-1"]))
    }

    @Test func aGroupThatFailsIsAppliedAgainPlanByPlanSoOneErrorStaysItsOwn() async throws {
        let recorder = Recorder(held: 1, failWhen: { $0.contains("bad") ? Refused() : nil })
        let commit = PlanGroupCommit(maximumInFlight: 1, maximumPlans: 8, apply: recorder.apply)
        async let first = commit.submit(Self.plan("a", in: "c1"), now: Date())
        await Self.waitUntilCalled(recorder, times: 1)
        async let good = commit.submit(Self.plan("good", in: "c2"), now: Date())
        let bad = Task { try await commit.submit(Self.plan("bad", in: "c3"), now: Date()) }
        await Self.waitUntil(commit, holds: 2)
        recorder.release()
        #expect(try await first)
        #expect(try await good)
        await #expect(throws: Refused.self) { try await bad.value }
        let groups = recorder.groups.withLock { $0 }
        #expect(groups.count == 4)
        #expect(Set(groups[1]) == ["good", "bad"])
        #expect(Set(groups[2...].map { $0 }) == [["good"], ["bad"]])
    }

    @Test func anUnreachableDatabaseFailsTheWholeGroupWithoutTryingEachPlan() async throws {
        let recorder = Recorder(
            held: 1, failWhen: { $0.count > 1 ? StoreError.unavailable("the database is down") : nil })
        let commit = PlanGroupCommit(maximumInFlight: 1, maximumPlans: 8, apply: recorder.apply)
        async let first = commit.submit(Self.plan("a", in: "c1"), now: Date())
        await Self.waitUntilCalled(recorder, times: 1)
        let second = Task { try await commit.submit(Self.plan("b", in: "c2"), now: Date()) }
        let third = Task { try await commit.submit(Self.plan("c", in: "c3"), now: Date()) }
        await Self.waitUntil(commit, holds: 2)
        recorder.release()
        #expect(try await first)
        await #expect(throws: StoreError.self) { try await second.value }
        await #expect(throws: StoreError.self) { try await third.value }
        #expect(recorder.groups.withLock { $0.count } == 2)
    }

    static func waitUntilCalled(_ recorder: Recorder, times: Int) async {
        await yieldUntil("\(times) statements") { recorder.groups.withLock { $0.count } >= times }
    }
}
