import Foundation
import HTTPTypes
import MetricsTestKit
import Networking
import NetworkingAsyncHTTPClient
import NetworkingMetrics
import Synchronization
import TestSupport
import Testing

/// Keeps every event it is told, in order.
final class EventLog: RequestEventMonitor {
    private let events = Mutex<[RequestEvent]>([])
    var all: [RequestEvent] { events.withLock { $0 } }

    func receive(_ event: RequestEvent) { events.withLock { $0.append(event) } }

    /// Each event of request `id` in a word or two, for comparing sequences.
    func story(of id: UInt64) -> [String] {
        all.filter { $0.requestID == id }.map { event in
            switch event.kind {
            case .started: "started \(event.method) \(event.path)"
            case .adapted: "adapted"
            case .retrying(let attempt, let reason, _): "retrying after attempt \(attempt): \(reason)"
            case .servedFromCache: "served from cache"
            case .revalidated: "revalidated"
            case .finished(let metrics):
                "finished \(metrics.outcome) from \(metrics.source.map { "\($0)" } ?? "nowhere") in \(metrics.attempts)"
            }
        }
    }

    /// The ids of the requests seen, in order.
    var requestIDs: [UInt64] {
        var seen: [UInt64] = []
        for event in all where !seen.contains(event.requestID) { seen.append(event.requestID) }
        return seen
    }
}

/// The performer's request events, told to a monitor and recorded as metrics, against the kit's
/// test server.
@Suite("Request events and metrics")
struct RequestEventTests {
    static func performer(_ fixture: KitFixture, monitors: [any RequestEventMonitor], cache: HTTPCache? = nil)
        -> APIClient
    {
        var performer = NetworkRequestPerformer(
            transport: AsyncHTTPClientTransport(), interceptors: [HeaderInterceptor([.init("X-App")!: "tests"])],
            cache: cache, retryPolicy: RetryPolicy(baseDelay: .milliseconds(5), maxDelay: .milliseconds(10)))
        performer.monitors = monitors
        return APIClient(baseURL: fixture.baseURL, performer: performer)
    }

    @Test("a request retried after a 503 and then the same request served from the cache tell their stories in order")
    func retriedThenServedFromCache() async throws {
        try await KitFixture.with { fixture in
            let log = EventLog()
            let client = Self.performer(fixture, monitors: [log], cache: try HTTPCache(memoryLimit: 1 << 20))
            let request = Get<Counted>(path: "/flaky/events", query: ["failures": "1", "maxAge": "60"])
            _ = try await client.send(request)
            _ = try await client.send(request)
            let ids = log.requestIDs
            try #require(ids.count == 2)
            #expect(
                log.story(of: ids[0]) == [
                    "started GET /flaky/events",
                    "adapted",
                    "retrying after attempt 1: status 503",
                    "finished 2xx from network in 2",
                ])
            #expect(
                log.story(of: ids[1]) == [
                    "started GET /flaky/events",
                    "served from cache",
                    "finished 2xx from cache in 0",
                ])
            #expect(fixture.hits.count("flaky-events") == 2)
            // The adapted request is the one sent: the interceptor's field is on it.
            let adapted = log.all.compactMap { event -> HTTPRequest? in
                if case .adapted(let head) = event.kind { head } else { nil }
            }
            #expect(adapted.first?.headerFields[.init("X-App")!] == "tests")
            guard case .finished(let metrics) = log.all.last?.kind else {
                Issue.record("the last event is not finished")
                return
            }
            #expect(metrics.responseBytes == #"{"attempt":2}"#.utf8.count)
            #expect(metrics.status == 200)
        }
    }

    @Test("a revalidated answer says so, and a request that fails reports its attempts and its error")
    func revalidationAndFailure() async throws {
        try await KitFixture.with { fixture in
            let log = EventLog()
            let client = Self.performer(fixture, monitors: [log], cache: try HTTPCache(memoryLimit: 1 << 20))
            _ = try await client.send(Get<Counted>(path: "/cache/etag/events"))
            _ = try await client.send(Get<Counted>(path: "/cache/etag/events"))
            await #expect(throws: NetworkError.self) {
                _ = try await client.send(Get<Counted>(path: "/status/500"))
            }
            let ids = log.requestIDs
            try #require(ids.count == 3)
            #expect(log.story(of: ids[1]).suffix(2) == ["revalidated", "finished 2xx from revalidated in 1"])
            #expect(
                log.story(of: ids[2]) == [
                    "started GET /status/500",
                    "adapted",
                    "retrying after attempt 1: status 500",
                    "retrying after attempt 2: status 500",
                    "finished 5xx from network in 3",
                ])
        }
        let refused = EventLog()
        var performer = NetworkRequestPerformer(transport: AsyncHTTPClientTransport(), retryPolicy: .never)
        performer.monitors = [refused]
        let client = APIClient(baseURL: RefusedAddress.url, performer: performer)
        await #expect(throws: NetworkError.self) { _ = try await client.send(Get<Counted>(path: "/x")) }
        #expect(
            refused.story(of: try #require(refused.requestIDs.first)).last == "finished no_connection from nowhere in 1"
        )
    }

    @Test("the metrics recorder counts requests by endpoint, outcome and source, with durations, bytes and retries")
    func metricsRecorder() async throws {
        let metrics = TestMetrics()
        try await KitFixture.with { fixture in
            let client = Self.performer(
                fixture, monitors: [MetricsRecorder(factory: metrics)], cache: try HTTPCache(memoryLimit: 1 << 20))
            let request = Get<Counted>(path: "/flaky/metrics", query: ["failures": "1", "maxAge": "60"])
            _ = try await client.send(request)
            _ = try await client.send(request)
            _ = try await client.send(Get<ExampleProduct>(path: "/products/12345"))
        }
        let flaky = [("endpoint", "/flaky/metrics"), ("method", "GET")]
        #expect(
            try metrics.expectCounter(
                "http_client_requests_total", flaky + [("outcome", "2xx"), ("source", "network")]
            )
            .values == [1])
        #expect(
            try metrics.expectCounter("http_client_requests_total", flaky + [("outcome", "2xx"), ("source", "cache")])
                .values == [1])
        #expect(
            try metrics.expectCounter("http_client_retries_total", flaky + [("reason", "status 503")]).values == [1])
        #expect(try metrics.expectTimer("http_client_request_duration_seconds", flaky).values.count == 2)
        let bytes = Int64(#"{"attempt":2}"#.utf8.count)
        #expect(try metrics.expectCounter("http_client_response_bytes_total", flaky).values == [bytes, bytes])
        // Identifiers fold into one series.
        let product = [("endpoint", "/products/{id}"), ("method", "GET")]
        #expect(try metrics.expectTimer("http_client_request_duration_seconds", product).values.count == 1)
        #expect(
            MetricsRecorder.endpointTemplate("/v1/products/8c1f3a2e-54b1-4e0f-9a3b-1d2e3f4a5b6c/photos")
                == "/v1/products/{id}/photos")
    }
}

/// The `RequestEvents` article's code, run.
@Suite("Request events article")
struct RequestEventsArticleTests {
    @Test("the article's metrics recorder counts a request")
    func articleExample() async throws {
        let metrics = TestMetrics()
        try await KitFixture.with { fixture in
            var performer = NetworkRequestPerformer(transport: AsyncHTTPClientTransport())
            performer.monitors = [MetricsRecorder(factory: metrics)]
            let client = APIClient(baseURL: fixture.baseURL, performer: performer)
            _ = try await client.send(Get<Echo>(path: "/echo"))
        }
        let dimensions = [("endpoint", "/echo"), ("method", "GET"), ("outcome", "2xx"), ("source", "network")]
        #expect(try metrics.expectCounter("http_client_requests_total", dimensions).values == [1])
    }
}
