import Foundation
import HTTPTypes
import Networking
import Synchronization

/// A transport with no network, for testing code built on the kit: it answers requests with
/// responses you give it by method and path, records every exchange, and can wait before answering
/// or fail on purpose. The performer above it is the real one (retries, cache, authorization).
///
/// ```swift
/// let transport = StubTransport()
/// transport.stub(.get, "/v1/products", with: try .json(page))
/// let client = APIClient(baseURL: URL(string: "https://api.example")!,
///                        performer: NetworkRequestPerformer(transport: transport))
/// ```
///
/// Several answers for one route are given in turn, the last one repeating, so "503, then 200"
/// tests a retry. A request no stub matches throws ``NetworkError/transport(reason:)`` naming its
/// method and path, so a missing stub is one clear failure, not a hang. Latency is waited out on
/// the clock you give (a test clock makes it instant and controllable); cancelling the request
/// during it throws ``NetworkError/cancelled``.
public final class StubTransport: HTTPTransport, Sendable {
    private struct Route: Sendable {
        var method: String
        var path: String
        var answers: [StubResponse]
        var served = 0
    }

    private struct State: Sendable {
        var routes: [Route] = []
        var exchanges: [RecordedExchange] = []
    }

    private let state = Mutex(State())
    private let latency: Duration
    private let sleep: @Sendable (Duration) async throws -> Void

    /// Makes a transport that answers after `latency`, waited out on `clock`.
    public init<C: Clock>(latency: Duration = .zero, clock: C = ContinuousClock()) where C.Duration == Duration {
        self.latency = latency
        self.sleep = { duration in try await clock.sleep(for: duration) }
    }

    /// Answers `method path` (the path without its query) with `responses` in turn, the last one
    /// for every request after; replaces an earlier stub of the same route.
    public func stub(_ method: HTTPMethod, _ path: String, with first: StubResponse, _ then: StubResponse...) {
        state.withLock { state in
            state.routes.removeAll { $0.method == method.rawValue && $0.path == path }
            state.routes.append(Route(method: method.rawValue, path: path, answers: [first] + then))
        }
    }

    /// Every exchange so far, in the order the requests arrived.
    public var exchanges: [RecordedExchange] { state.withLock { $0.exchanges } }

    /// The exchanges for `method path`.
    public func exchanges(_ method: HTTPMethod, _ path: String) -> [RecordedExchange] {
        exchanges.filter { $0.method == method.rawValue && $0.path == path }
    }

    /// Answers `request` from the stubs, after the latency.
    public func send(_ request: TransportRequest, options: TransferOptions) async throws(NetworkError)
        -> TransportResponse
    {
        let body: Data
        do {
            body = try await request.body?.collect() ?? Data()
        } catch {
            throw .requestBuildFailed(.bodyStreamFailed(reason: "\(error)"))
        }
        let method = request.head.method.rawValue
        let path = Self.pathWithoutQuery(request.head.path)
        let answer = state.withLock { state -> StubResponse? in
            guard let index = state.routes.firstIndex(where: { $0.method == method && $0.path == path }) else {
                return nil
            }
            let route = state.routes[index]
            state.routes[index].served += 1
            return route.answers[min(route.served, route.answers.count - 1)]
        }
        if latency > .zero {
            do {
                try await sleep(latency)
            } catch {
                throw .cancelled
            }
        }
        if Task.isCancelled { throw .cancelled }
        let outcome: Result<TransportResponse, NetworkError>
        switch answer {
        case nil:
            outcome = .failure(.transport(reason: "no stub for \(method) \(path)"))
        case .failure(let error):
            outcome = .failure(error)
        case .response(_, let fields, let bytes):
            if let response = answer?.transportResponse() {
                if bytes.count > options.maxResponseBytes {
                    outcome = .failure(.responseTooLarge(limit: options.maxResponseBytes))
                } else {
                    let size = Int64(bytes.count)
                    options.progress?(TransferProgress(direction: .download, completedBytes: size, totalBytes: size))
                    outcome = .success(response)
                }
            } else {
                outcome = .failure(
                    .transport(reason: "the stub's header fields \(fields.keys.sorted()) are not all valid names"))
            }
        }
        let exchange = RecordedExchange(request: request, body: body, outcome: outcome.map(\.status.code))
        state.withLock { $0.exchanges.append(exchange) }
        return try outcome.get()
    }

    /// `path` up to its `?`.
    static func pathWithoutQuery(_ path: String?) -> String {
        guard let path else { return "" }
        return path.firstIndex(of: "?").map { String(path[..<$0]) } ?? path
    }
}
