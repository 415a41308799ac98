import AsyncHTTPClient
import Foundation
import Networking
import NetworkingAsyncHTTPClient
import Synchronization
import TestSupport
import Testing

/// The two transports every behaviour here is proven on.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case asyncHTTPClient
    case urlSession

    var transport: any HTTPTransport {
        switch self {
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        case .urlSession: URLSessionTransport()
        }
    }

    var testDescription: String { rawValue }
}

/// Collects progress reports from a transfer.
final class ProgressLog: Sendable {
    private let reports = Mutex([TransferProgress]())
    var all: [TransferProgress] { reports.withLock { $0 } }
    func record(_ progress: TransferProgress) { reports.withLock { $0.append(progress) } }
}

@Suite("HTTP transports", .timeLimit(.minutes(1)))
struct TransportTests {
    @Test("the shared client opens no spans when the app bootstrapped no tracer")
    func sharedClientSkipsTheNoOpTracer() async throws {
        // The test process bootstraps no tracer, so AsyncHTTPClient's default would be the no-op one,
        // which it still asks for a span per request (named by reflecting the method).
        #expect(AsyncHTTPClientTransport.sharedClient.tracer == nil)
        let plain = HTTPClient(eventLoopGroupProvider: .singleton)
        #expect(plain.tracer != nil, "AsyncHTTPClient's default is the no-op tracer")
        try await plain.shutdown()
    }

    @Test("sends method, headers, query and JSON body, and reads the answer", arguments: TransportKind.allCases)
    func roundTrip(kind: TransportKind) async throws {
        try await KitFixture.with { fixture in
            let request = Send<Echo>(
                path: "/echo", method: .patch, parameters: .json(["name": "Ada"], query: ["q": "a b"]),
                headers: ["X-Trace": "t-1"])
            let echo = try await fixture.client(transport: kind.transport).send(request)
            #expect(echo.method == "PATCH")
            #expect(echo.rawQuery == "q=a%20b")
            #expect(echo.headers["x-trace"] == "t-1")
            #expect(echo.headers["content-type"] == "application/json; charset=utf-8")
            #expect(echo.body == #"{"name":"Ada"}"#)
        }
    }

    @Test("cancelling the task cancels the request mid-response", arguments: TransportKind.allCases)
    func cancellationStopsRequest(kind: TransportKind) async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(transport: kind.transport, retry: .never)
            let log = ProgressLog()
            let task = Task {
                try await client.send(Get<Data>(path: "/slow", query: ["ms": 20_000]), progress: log.record)
            }
            // Mid-response: the head and the first bytes of the body (one a tenth of a second) have
            // arrived, as the transport itself reports.
            let bodyArrived = try await eventually(within: .seconds(20)) {
                log.all.contains { $0.direction == .download && $0.completedBytes >= 2 }
            }
            #expect(bodyArrived, "no body bytes reported: \(log.all)")
            let cancelledAt = ContinuousClock.now
            task.cancel()
            let result = await task.result
            #expect(ContinuousClock.now - cancelledAt < .seconds(10), "well before the 20 s response would end")
            guard case .failure(let error) = result, case NetworkError.cancelled = error else {
                Issue.record("expected cancelled, got \(result)")
                return
            }
        }
    }

    @Test("a request that outlives its timeout fails with timedOut", arguments: TransportKind.allCases)
    func timeoutFails(kind: TransportKind) async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(transport: kind.transport, retry: .never, timeout: .milliseconds(500))
            let started = ContinuousClock.now
            await #expect {
                try await client.send(Get<Data>(path: "/slow", query: ["ms": 30_000]))
            } throws: { error in
                guard case NetworkError.timedOut = error else { return false }
                return true
            }
            // The point is that the timeout cuts the exchange short; the margin absorbs a loaded
            // two-core machine (a crashing subprocess's backtrace once took a core for seconds).
            #expect(ContinuousClock.now - started < .seconds(20), "well before the 30 s response would end")
        }
    }

    @Test("upload progress is reported and reaches 100%", arguments: TransportKind.allCases)
    func uploadProgressReachesCompletion(kind: TransportKind) async throws {
        try await KitFixture.with { fixture in
            let log = ProgressLog()
            let payload = Data(repeating: 7, count: 1_000_000)
            let request = Send<[String: Int]>(
                path: "/upload", method: .post, parameters: .raw(payload, mediaType: .jpeg))
            let answer = try await fixture.client(transport: kind.transport).send(request, progress: log.record)
            #expect(answer["bytes"] == payload.count)
            let uploads = log.all.filter { $0.direction == .upload }
            #expect(uploads.count > 1, "progress is reported along the way, not only at the end")
            #expect(uploads.last?.completedBytes == Int64(payload.count))
            #expect(uploads.last?.fractionCompleted == 1)
        }
    }

    @Test("download progress counts the body as it arrives", arguments: TransportKind.allCases)
    func downloadProgress(kind: TransportKind) async throws {
        try await KitFixture.with { fixture in
            let log = ProgressLog()
            let body = try await fixture.client(transport: kind.transport)
                .send(Get<Data>(path: "/big", query: ["bytes": 2_000_000]), progress: log.record)
            #expect(body.count == 2_000_000)
            let downloads = log.all.filter { $0.direction == .download }
            #expect(downloads.last?.completedBytes == 2_000_000)
            #expect(downloads.last?.totalBytes == 2_000_000)
        }
    }

    @Test("an unreachable server is noConnection", arguments: TransportKind.allCases)
    func unreachableServer(kind: TransportKind) async throws {
        let client = APIClient(
            baseURL: RefusedAddress.url,
            performer: NetworkRequestPerformer(transport: kind.transport, retryPolicy: .never))
        await #expect {
            try await client.send(Get<Echo>(path: "/echo"))
        } throws: { error in
            guard case NetworkError.noConnection = error else { return false }
            return true
        }
    }
}
