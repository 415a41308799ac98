import Foundation
import HTTPTypes
import NetworkingAsyncHTTPClient
import Synchronization
import TestSupport
import Testing

@testable import Networking

@Suite("Retry")
struct RetryTests {
    @Test("a GET that fails twice with 503 then succeeds is answered on the third attempt")
    func retriesIdempotentRequest() async throws {
        try await KitFixture.with { fixture in
            let answer = try await fixture.client().send(Get<Counted>(path: "/flaky/get"))
            #expect(answer["attempt"] == 3)
            #expect(fixture.hits.count("flaky-get") == 3)
        }
    }

    @Test("a POST without an Idempotency-Key is never retried")
    func neverRetriesUnkeyedPost() async throws {
        try await KitFixture.with { fixture in
            await #expect(throws: NetworkError.self) {
                try await fixture.client().send(
                    Send<Counted>(path: "/flaky/post", method: .post, parameters: .json(["a": 1])))
            }
            #expect(fixture.hits.count("flaky-post") == 1)
        }
    }

    @Test("a POST with an Idempotency-Key is retried")
    func retriesKeyedPost() async throws {
        try await KitFixture.with { fixture in
            let request = Send<Counted>(
                path: "/flaky/keyed", method: .post, parameters: .json(["a": 1]), headers: ["Idempotency-Key": "k1"])
            let answer = try await fixture.client().send(request)
            #expect(answer["attempt"] == 3)
            #expect(fixture.hits.count("flaky-keyed") == 3)
        }
    }

    @Test("a status that is not transient (404, 400, 401) is not retried")
    func doesNotRetryPermanentStatus() async throws {
        try await KitFixture.with { fixture in
            for status in [400, 401, 404] {
                await #expect(throws: NetworkError.self) {
                    try await fixture.client().send(
                        Get<Counted>(path: "/flaky/permanent\(status)", query: ["status": status]))
                }
                #expect(fixture.hits.count("flaky-permanent\(status)") == 1)
            }
        }
    }

    @Test("attempts stop at the policy's maximum and the last failure is reported")
    func boundedByAttempts() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(retry: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(5)))
            await #expect {
                try await client.send(Get<Counted>(path: "/flaky/bounded", query: ["failures": 10]))
            } throws: { error in
                (error as? NetworkError)?.status == .serviceUnavailable
            }
            #expect(fixture.hits.count("flaky-bounded") == 2)
        }
    }

    @Test("Retry-After is honoured: the retry waits at least as long as the server asked")
    func honoursRetryAfter() async throws {
        try await KitFixture.with { fixture in
            let started = ContinuousClock.now
            let answer = try await fixture.client().send(
                Get<Counted>(path: "/flaky/later", query: ["failures": 1, "status": 429, "retryAfter": "1"]))
            #expect(answer["attempt"] == 2)
            #expect(ContinuousClock.now - started >= .seconds(1))
        }
    }

    @Test("a Retry-After beyond the time budget ends the retries at once")
    func retryAfterBeyondBudgetStops() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(retry: RetryPolicy(maxTotalDelay: .seconds(2)))
            let started = ContinuousClock.now
            await #expect {
                try await client.send(
                    Get<Counted>(path: "/flaky/toolong", query: ["failures": 1, "status": 503, "retryAfter": "60"]))
            } throws: { error in
                guard case NetworkError.httpStatus(let failure) = error else { return false }
                return failure.retryAfter == .seconds(60)
            }
            #expect(ContinuousClock.now - started < .seconds(30), "it did not wait the 60 s asked for")
            #expect(fixture.hits.count("flaky-toolong") == 1)
        }
    }

    @Test("a connection failure on a GET is retried")
    func retriesConnectionFailure() async throws {
        let attempts = Counter()
        var performer = NetworkRequestPerformer(
            transport: CountingTransport(base: AsyncHTTPClientTransport(), counter: attempts),
            retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5)))
        performer.sleep = { _ in }
        let client = APIClient(baseURL: RefusedAddress.url, performer: performer)
        await #expect(throws: NetworkError.self) { try await client.send(Get<Echo>(path: "/echo")) }
        #expect(attempts.value == 3)
    }

    @Test("backoff doubles from the base delay, capped, and jitter draws below the cap")
    func backoffGrowsExponentially() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .milliseconds(350), jitter: false)
        #expect(policy.backoff(forRetry: 1, random: { _ in 1 }) == .milliseconds(100))
        #expect(policy.backoff(forRetry: 2, random: { _ in 1 }) == .milliseconds(200))
        #expect(policy.backoff(forRetry: 3, random: { _ in 1 }) == .milliseconds(350))
        let jittered = RetryPolicy(baseDelay: .milliseconds(100), jitter: true)
        #expect(jittered.backoff(forRetry: 2, random: { _ in 0.25 }) == .milliseconds(50))
    }

    @Test("HTTP dates parse to the right instant; other forms do not parse")
    func parsesHTTPDates() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")?.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT")?.timeIntervalSince1970 == 0)
        #expect(HTTPDate.parse("Tue, 29 Feb 2028 12:00:00 GMT")?.timeIntervalSince1970 == 1_835_438_400)
        #expect(HTTPDate.parse("Fri, 31 Dec 1999 23:59:59 GMT")?.timeIntervalSince1970 == 946_684_799)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("0") == nil)
    }

    @Test("Retry-After reads delta-seconds and HTTP dates")
    func parsesRetryAfter() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:47 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:40:00 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("-5", now: now) == nil)
    }
}

/// A transport that counts what passes through it to a real one.
struct CountingTransport: HTTPTransport {
    let base: any HTTPTransport
    let counter: Counter

    func send(_ request: TransportRequest, options: TransferOptions) async throws(NetworkError) -> TransportResponse {
        counter.increment()
        return try await base.send(request, options: options)
    }
}
