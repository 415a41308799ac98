import Foundation
import InMemoryTracing
import Networking
import TestSupport
import Testing
import Tracing

/// The performer's tracing stage, against a real server on loopback and swift-distributed-tracing's
/// in-memory tracer (which propagates its ids as `in-memory-trace-id` / `in-memory-span-id`, where
/// an OpenTelemetry tracer writes `traceparent`).
@Suite("Client spans")
struct TracingTests {
    @Test("a traced request sends its span's context to the server, and the span has the status and the retries")
    func spanPropagatesAndRecordsRetries() async throws {
        try await KitFixture.with { fixture in
            let tracer = InMemoryTracer()
            let client = fixture.client(tracer: tracer)
            let echo = try await client.send(Get<Echo>(path: "/echo", query: ["token": "secret"]))
            let flaky = try await client.send(Get<Counted>(path: "/flaky/traced", query: ["failures": "1"]))
            #expect(flaky["attempt"] == 2)
            let spans = tracer.finishedSpans
            try #require(spans.count == 2)
            let (echoed, retried) = (spans[0], spans[1])
            #expect(echoed.kind == .client && echoed.operationName == "GET")
            #expect(echo.headers[InMemoryTracer.spanIDKey] == echoed.spanID, "the server saw the span's own id")
            #expect(echo.headers[InMemoryTracer.traceIDKey] == echoed.traceID)
            #expect(echoed.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
            #expect(
                echoed.attributes["url.full"]?.toSpanAttribute()
                    == .string("\(fixture.baseURL.absoluteString)/echo?token=\(Redaction.placeholder)"),
                "secret query values are redacted")
            #expect(echoed.attributes["http.request.resend_count"] == nil)
            #expect(retried.attributes["http.request.resend_count"]?.toSpanAttribute() == 1)
            #expect(retried.status == nil, "a retried request that succeeded is no error")
            #expect(retried.traceID != echoed.traceID, "each exchange with no span around it starts a trace")
        }
    }

    @Test("a request inside a span of the app's is its child; a cache hit says so; a failure is an error span")
    func parentCacheAndFailure() async throws {
        try await KitFixture.with { fixture in
            let tracer = InMemoryTracer()
            let client = fixture.client(cache: try HTTPCache(), tracer: tracer)
            try await tracer.withSpan("screen") { _ in
                _ = try await client.send(Get<Counted>(path: "/cache/max-age/traced"))
                _ = try await client.send(Get<Counted>(path: "/cache/max-age/traced"))
            }
            let refused = APIClient(
                baseURL: RefusedAddress.url,
                performer: {
                    var performer = NetworkRequestPerformer(retryPolicy: .never)
                    performer.tracer = tracer
                    return performer
                }())
            await #expect(throws: NetworkError.self) { _ = try await refused.send(Get<Counted>(path: "/")) }
            let spans = tracer.finishedSpans
            try #require(spans.count == 4)
            let (fetched, hit, screen, failed) = (spans[0], spans[1], spans[2], spans[3])
            #expect(screen.operationName == "screen")
            #expect(fetched.parentSpanID == screen.spanID && hit.parentSpanID == screen.spanID)
            #expect(fetched.attributes["bazaar.cache"] == nil)
            #expect(hit.attributes["bazaar.cache"]?.toSpanAttribute() == "hit")
            #expect(fixture.hits.count("max-age-traced") == 1)
            #expect(failed.status?.code == .error)
            #expect(failed.attributes["error.type"]?.toSpanAttribute() == "no_connection")
            #expect(failed.errors.count == 1)
        }
    }

    @Test("the Tracing article's code: a traced product read")
    func articleExample() async throws {
        try await KitFixture.with { fixture in
            let serverURL = fixture.baseURL
            let tracer = InMemoryTracer()  // in an app: the tracer swift-otel made
            var performer = NetworkRequestPerformer()
            performer.tracer = tracer
            let client = APIClient(baseURL: serverURL, performer: performer)
            let product = try await client.send(GetProduct(id: "p1"))
            #expect(product.id == "p1")
            #expect(tracer.finishedSpans.map(\.operationName) == ["GET"])
        }
    }

    @Test("without a tracer nothing is added to the request")
    func noTracerNoHeaders() async throws {
        try await KitFixture.with { fixture in
            let echo = try await fixture.client().send(Get<Echo>(path: "/echo"))
            #expect(echo.headers.keys.allSatisfy { !$0.hasPrefix("in-memory") && $0 != "traceparent" })
        }
    }
}
