import Foundation
import Networking
import NetworkingAsyncHTTPClient
import TestSupport
import Testing

/// Judged by attempts and outcomes rather than by the wall clock: on two busy cores a timer may
/// fire late, but an attempt that was never made, or an answer that never came, is exact.
@Suite("Time limits: timeout per attempt, deadline for the whole request", .timeLimit(.minutes(1)))
struct TimeLimitTests {
    /// Three attempts with short, fixed waits between them.
    static func isTimedOut(_ error: any Error) -> Bool {
        if case NetworkError.timedOut = error { true } else { false }
    }

    static let threeQuickAttempts = RetryPolicy(
        maxAttempts: 3, baseDelay: .milliseconds(20), maxDelay: .milliseconds(20), jitter: false)

    /// A client whose transport counts the attempts it is asked to make. Attempts are counted
    /// there, not by the server: an attempt cut at its timeout may never reach a busy in-process
    /// server's handler at all.
    static func countingClient(_ fixture: KitFixture, attempts: Counter) -> APIClient {
        fixture.client(
            transport: CountingTransport(base: AsyncHTTPClientTransport(), counter: attempts),
            retry: threeQuickAttempts, timeout: .milliseconds(300))
    }

    @Test("timeout bounds each attempt: a stalled server gets all three attempts, each cut at 300 ms")
    func timeoutIsPerAttempt() async throws {
        try await KitFixture.with { fixture in
            let attempts = Counter()
            let client = Self.countingClient(fixture, attempts: attempts)
            await #expect { try await client.send(Get<Data>(path: "/stall", query: ["ms": 2000])) } throws: {
                Self.isTimedOut($0)
            }
            #expect(attempts.value == 3)
        }
    }

    @Test("a deadline bounds the whole request: retries stop when it is spent, and it ends as timedOut")
    func deadlineBoundsRetries() async throws {
        try await KitFixture.with { fixture in
            let attempts = Counter()
            let client = Self.countingClient(fixture, attempts: attempts)
            await #expect {
                try await client.send(Get<Data>(path: "/stall", query: ["ms": 2000], deadline: .milliseconds(450)))
            } throws: { Self.isTimedOut($0) }
            #expect((1...2).contains(attempts.value), "450 ms leave room for at most two attempts")
        }
    }

    @Test("a deadline shorter than the timeout cuts the one attempt short")
    func deadlineCutsAnAttempt() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(retry: .never, timeout: .seconds(10))
            // Without the deadline this answers 200 after 1.5 s.
            await #expect {
                try await client.send(Get<Data>(path: "/stall", query: ["ms": 1500], deadline: .milliseconds(300)))
            } throws: { Self.isTimedOut($0) }
        }
    }

    @Test("a wait that would cross the deadline is not waited: the last answer comes back at once")
    func waitBeyondDeadlineEndsRetries() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(retry: RetryPolicy(maxAttempts: 3, maxTotalDelay: .seconds(120)))
            let request = Get<Data>(
                path: "/flaky/deadline-wait", query: ["failures": 2, "status": 503, "retryAfter": "90"],
                deadline: .seconds(20))
            let started = ContinuousClock.now
            await #expect {
                try await client.send(request)
            } throws: { error in
                (error as? NetworkError)?.statusCode == 503
            }
            #expect(ContinuousClock.now - started < .seconds(20), "Retry-After 90 s lies beyond the 20 s deadline")
            #expect(fixture.hits.count("flaky-deadline-wait") == 1)
        }
    }
}
