import Foundation
import HTTPTypes
import Testing

@testable import Networking

/// The retry layer's decisions, event by event, with no network, no clock and no sleep.
@Suite("RetrySchedule: the retry layer's pure core")
struct RetryScheduleTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    /// No jitter: 100 ms doubling up to 400 ms, four attempts, at most 1 s of waiting.
    static let policy = RetryPolicy(
        maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .milliseconds(400), maxTotalDelay: .seconds(1),
        jitter: false)

    static func status(_ code: Int, retryAfter: String? = nil) -> Result<TransportResponse, NetworkError> {
        var fields = HTTPFields()
        if let retryAfter { fields[.retryAfter] = retryAfter }
        return .success(
            TransportResponse(head: HTTPResponse(status: .init(code: code), headerFields: fields), body: Data()))
    }

    /// One row: outcomes in order, with the time left before the deadline after each; the steps
    /// expected after each.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let mayRetry: Bool
        let events: [(outcome: Result<TransportResponse, NetworkError>, left: Duration?)]
        let steps: [RetrySchedule.Step]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "a success finishes at once", mayRetry: true, events: [(status(200), nil)],
            steps: [.finish(attempts: 1)]),
        Row(name: "a 404 is final", mayRetry: true, events: [(status(404), nil)], steps: [.finish(attempts: 1)]),
        Row(
            name: "503s back off 100, 200, 400 ms, then the fourth attempt's outcome stands", mayRetry: true,
            events: [(status(503), nil), (status(503), nil), (status(503), nil), (status(503), nil)],
            steps: [
                .wait(.milliseconds(100)), .wait(.milliseconds(200)), .wait(.milliseconds(400)), .finish(attempts: 4),
            ]),
        Row(
            name: "a connection failure, then a success", mayRetry: true,
            events: [(.failure(.noConnection(reason: "refused")), nil), (status(201), nil)],
            steps: [.wait(.milliseconds(100)), .finish(attempts: 2)]),
        Row(
            name: "a POST without an Idempotency-Key is never repeated", mayRetry: false,
            events: [(status(503), nil)], steps: [.finish(attempts: 1)]),
        Row(
            name: "Retry-After longer than the backoff is honoured", mayRetry: true,
            events: [(status(429, retryAfter: "1"), nil), (status(200), nil)],
            steps: [.wait(.seconds(1)), .finish(attempts: 2)]),
        Row(
            name: "a Retry-After past the policy's time budget stops", mayRetry: true,
            events: [(status(429, retryAfter: "5"), nil)], steps: [.finish(attempts: 1)]),
        Row(
            name: "a wait that would end after the deadline stops", mayRetry: true,
            events: [(status(503), .milliseconds(50))], steps: [.finish(attempts: 1)]),
    ]

    @Test(arguments: rows)
    func stepsFollowTheOutcomes(row: Row) {
        var schedule = RetrySchedule(policy: Self.policy, mayRetry: row.mayRetry, attemptTimeout: .seconds(30))
        var steps: [RetrySchedule.Step] = []
        for event in row.events {
            let step = schedule.afterAttempt(event.outcome, left: event.left, now: Self.now, random: { $0.upperBound })
            steps.append(step)
            if case .finish = step { break }
        }
        #expect(steps == row.steps)
    }

    @Test("before an attempt: the deadline shortens its timeout, and a passed deadline times the request out")
    func attemptTimeoutFollowsTheDeadline() {
        let schedule = RetrySchedule(policy: Self.policy, mayRetry: true, attemptTimeout: .seconds(10))
        #expect(schedule.beforeAttempt(left: nil) == .attempt(timeout: .seconds(10)))
        #expect(schedule.beforeAttempt(left: .seconds(3)) == .attempt(timeout: .seconds(3)))
        #expect(schedule.beforeAttempt(left: .seconds(30)) == .attempt(timeout: .seconds(10)))
        #expect(schedule.beforeAttempt(left: .zero) == .timedOut)
        #expect(schedule.beforeAttempt(left: .milliseconds(-5)) == .timedOut)
    }

    @Test("waits add up against the policy's total: the wait that would cross it is not taken")
    func waitsCountAgainstTheBudget() {
        let policy = RetryPolicy(
            maxAttempts: 10, baseDelay: .milliseconds(300), maxDelay: .milliseconds(300),
            maxTotalDelay: .milliseconds(700), jitter: false)
        var schedule = RetrySchedule(policy: policy, mayRetry: true, attemptTimeout: .seconds(1))
        let steps = (0..<4).map { _ in
            schedule.afterAttempt(Self.status(502), left: nil, now: Self.now, random: { $0.upperBound })
        }
        #expect(
            steps == [.wait(.milliseconds(300)), .wait(.milliseconds(300)), .finish(attempts: 3), .finish(attempts: 3)])
        #expect(schedule.waited == .milliseconds(600))
    }
}
