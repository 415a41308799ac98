import Foundation
import HTTPTypes
import Networking
import Synchronization
import TestSupport
import Testing

/// Hands out `Bearer n` values and counts how often it was asked.
final class CountingAuthorizer: RequestAuthorizer {
    private let asked = Mutex(0)
    var count: Int { asked.withLock { $0 } }

    func authorization() async throws(NetworkError) -> String {
        let count = asked.withLock { asked in
            asked += 1
            return asked
        }
        return "Bearer \(count)"
    }

    func authorization(replacing rejected: String) async throws(NetworkError) -> String {
        try await authorization()
    }
}

/// Remembers every request it adapts.
final class AdaptCounter: RequestInterceptor {
    private let adapted = Mutex(0)
    var count: Int { adapted.withLock { $0 } }

    func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        adapted.withLock { $0 += 1 }
        var request = request
        request.head.headerFields[HTTPField.Name("X-Adapted")!] = "yes"
        return request
    }
}

/// The performer's stages in their order: logging → interceptors → cache → authorization → retry →
/// transport, each proved by what the stage outside or inside it sees.
@Suite("Performer pipeline")
struct PipelineTests {
    @Test("interceptors run once per exchange, however many attempts the retry stage makes")
    func interceptorsSitOutsideRetries() async throws {
        try await KitFixture.with { fixture in
            let counter = AdaptCounter()
            let recorder = StatusRecorder()
            let client = fixture.client(interceptors: [counter, recorder])
            let answer = try await client.send(Get<[String: Int]>(path: "/flaky/once", query: ["failures": "2"]))
            #expect(answer["attempt"] == 3)
            #expect(fixture.hits.count("flaky-once") == 3)
            #expect(counter.count == 1)
            #expect(recorder.seen == [200], "interceptors see the final answer only")
        }
    }

    @Test("a header an interceptor adds reaches the server on every retried attempt")
    func adaptedRequestIsWhatIsRetried() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(interceptors: [AdaptCounter()])
            _ = try await client.send(Get<[String: Int]>(path: "/flaky/adapted", query: ["failures": "1"]))
            let echo = try await client.send(Get<Echo>(path: "/echo"))
            #expect(echo.headers["x-adapted"] == "yes")
            #expect(echo.headers["user-agent"] == KitVersion.userAgent)
        }
    }

    @Test("a fresh cache hit is served without asking the authorizer or sending")
    func cacheSitsOutsideAuthorization() async throws {
        try await KitFixture.with { fixture in
            let authorizer = CountingAuthorizer()
            let client = fixture.client(cache: try HTTPCache())
            let first = try await client.send(Get<[String: Int]>(path: "/cache/max-age/auth"), authorizer: authorizer)
            let second = try await client.send(Get<[String: Int]>(path: "/cache/max-age/auth"), authorizer: authorizer)
            #expect(first == second)
            #expect(fixture.hits.count("max-age-auth") == 1)
            #expect(authorizer.count == 1, "the hit never needed credentials")
        }
    }

    @Test("the authorizer's field replaces an Authorization the request carried")
    func authorizerReplacesTheCallersAuthorization() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client()
            let echo = try await client.send(
                Get<Echo>(path: "/echo", headers: ["Authorization": "Basic b2xk"]),
                authorizer: CountingAuthorizer())
            #expect(echo.headers["authorization"] == "Bearer 1", "one field, the authorizer's")
        }
    }

    @Test("a 401 is replayed once with newer credentials, under the cache and the interceptors")
    func replayStaysInsideTheCacheAndInterceptors() async throws {
        try await KitFixture.with { fixture in
            let authorizer = CountingAuthorizer()
            let counter = AdaptCounter()
            let recorder = StatusRecorder()
            let client = fixture.client(interceptors: [counter, recorder])
            await #expect {
                try await client.send(Get<Echo>(path: "/status/401"), authorizer: authorizer)
            } throws: { error in
                guard case NetworkError.httpStatus(let failure) = error else { return false }
                return failure.status == .unauthorized
            }
            #expect(authorizer.count == 2, "asked once, then once more for the replay")
            #expect(counter.count == 1)
            #expect(recorder.seen == [401])
        }
    }

    @Test("the log says how each exchange was answered: attempts, cache hit, revalidation")
    func logNotesHowTheAnswerCame() async throws {
        try await KitFixture.with { fixture in
            let capture = LogCapture()
            var performer = NetworkRequestPerformer(
                cache: try HTTPCache(), retryPolicy: RetryPolicy(baseDelay: .milliseconds(10)),
                logger: capture.logger())
            performer.timeout = .seconds(10)
            let client = APIClient(baseURL: fixture.baseURL, performer: performer)
            _ = try await client.send(Get<[String: Int]>(path: "/flaky/logged", query: ["failures": "1"]))
            _ = try await client.send(Get<[String: Int]>(path: "/cache/max-age/logged"))
            _ = try await client.send(Get<[String: Int]>(path: "/cache/max-age/logged"))
            _ = try await client.send(Get<[String: Int]>(path: "/cache/etag/logged"))
            _ = try await client.send(Get<[String: Int]>(path: "/cache/etag/logged"))
            let text = capture.all.joined(separator: "\n")
            #expect(text.contains("GET /flaky/logged?failures=1 → 200") && text.contains("note=attempts: 2"))
            #expect(text.contains("note=cache hit"))
            #expect(text.contains("GET /cache/etag/logged → 200") && text.contains("note=revalidated, attempts: 1"))
            #expect(text.contains("If-None-Match"), "trace shows the request as sent, conditional header included")
        }
    }

    @Test("a failed exchange is logged with its error and duration")
    func failuresAreLogged() async throws {
        let capture = LogCapture()
        let performer = NetworkRequestPerformer(retryPolicy: .never, logger: capture.logger())
        let client = APIClient(baseURL: RefusedAddress.url, performer: performer)
        await #expect(throws: NetworkError.self) { try await client.send(Get<Echo>(path: "/nowhere")) }
        let failure = try #require(capture.all.first { $0.contains("GET /nowhere failed") })
        #expect(failure.contains("duration_ms="))
        #expect(failure.contains("error=Could not connect to the server"))
    }
}
