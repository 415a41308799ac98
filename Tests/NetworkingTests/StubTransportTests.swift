import Foundation
import HTTPTypes
import Networking
import NetworkingTesting
import TestSupport
import Testing

/// `StubTransport` under the real performer: matching, answers in turn, recording, failures,
/// limits and cancellation.
@Suite("The stub transport")
struct StubTransportTests {
    static let base = URL(string: "https://api.example")!

    static func client(_ transport: StubTransport, retry: RetryPolicy = .never) -> APIClient {
        APIClient(baseURL: base, performer: NetworkRequestPerformer(transport: transport, retryPolicy: retry))
    }

    @Test("a request no stub matches fails at once, naming its method and path")
    func unmatchedRequestNamesItsRoute() async throws {
        let transport = StubTransport()
        transport.stub(.get, "/a", with: .status(200))
        await #expect(throws: NetworkError.transport(reason: "no stub for GET /b")) {
            _ = try await Self.client(transport).send(Get<Echo>(path: "/b"))
        }
        await #expect(throws: NetworkError.transport(reason: "no stub for POST /a")) {
            _ = try await Self.client(transport).send(Send<Echo>(path: "/a", method: .post))
        }
    }

    @Test("answers come in turn, the last repeating, so a 503 then a 200 is retried by the real performer")
    func answersInTurnDriveARetry() async throws {
        let transport = StubTransport()
        let echo = Echo(method: "GET", path: "/x", query: [], headers: [:], body: "", bodyLength: 0)
        transport.stub(.get, "/x", with: .status(503), try .json(echo))
        let client = Self.client(transport, retry: RetryPolicy(baseDelay: .milliseconds(1), maxDelay: .milliseconds(2)))
        #expect(try await client.send(Get<Echo>(path: "/x")).path == "/x")
        #expect(try await client.send(Get<Echo>(path: "/x")).path == "/x")
        #expect(transport.exchanges.map(\.status) == [503, 200, 200])
    }

    @Test("every exchange is recorded with its header fields and body, matched on the path without its query")
    func exchangesAreRecorded() async throws {
        let transport = StubTransport()
        transport.stub(.post, "/echo", with: .status(201))
        let request = Send<EmptyResponse>(
            path: "/echo", method: .post,
            parameters: .init(query: ["q": "lamp"], body: .json(["title": "Lamp"])),
            headers: ["X-Note": "hi"])
        _ = try await Self.client(transport).send(request)
        let exchange = try #require(transport.exchanges(.post, "/echo").first)
        #expect(exchange.target == "/echo?q=lamp")
        #expect(exchange.headerField("x-note") == "hi")
        #expect(String(decoding: exchange.body, as: UTF8.self) == #"{"title":"Lamp"}"#)
        #expect(exchange.status == 201)
    }

    @Test("an injected failure and an error status reach the caller as a real transport's would")
    func failuresAndStatuses() async throws {
        let transport = StubTransport()
        transport.stub(.get, "/down", with: .failure(.timedOut))
        transport.stub(.get, "/gone", with: .status(404, code: "not_found", message: "No such product."))
        await #expect(throws: NetworkError.timedOut) {
            _ = try await Self.client(transport).send(Get<Echo>(path: "/down"))
        }
        let error = await #expect(throws: NetworkError.self) {
            _ = try await Self.client(transport).send(Get<Echo>(path: "/gone"))
        }
        #expect(error?.status == .notFound)
        #expect(error?.serverCode == "not_found")
    }

    @Test("the response size limit holds, and cancelling during latency is .cancelled")
    func limitAndCancellation() async throws {
        let clock = ManualClock()
        let transport = StubTransport(latency: .seconds(60), clock: clock)
        transport.stub(.get, "/slow", with: .status(200))
        let slow = Task { try await Self.client(transport).send(Get<Echo>(path: "/slow")) }
        #expect(await clock.sleepers(reach: 1))
        slow.cancel()
        await #expect(throws: NetworkError.cancelled) { _ = try await slow.value }

        let big = StubTransport()
        big.stub(.get, "/big", with: .response(status: 200, headerFields: [:], body: Data(count: 2048)))
        let options = TransferOptions(maxResponseBytes: 1024)
        let request = TransportRequest(
            head: HTTPRequest(method: .get, scheme: "https", authority: "api.example", path: "/big"), body: nil)
        await #expect(throws: NetworkError.responseTooLarge(limit: 1024)) {
            _ = try await big.send(request, options: options)
        }
    }
}
