import Foundation
import Hummingbird
import Networking
import NetworkingAsyncHTTPClient
import TestSupport
import Tracing

/// Starts the kit's test routes on a free port and hands the test a client for them.
struct KitFixture: Sendable {
    let baseURL: URL
    let hits: HitCounter

    /// Runs `body` with a fixture whose server lives as long as the body runs.
    @discardableResult
    static func with<Result: Sendable>(_ body: (KitFixture) async throws -> Result) async throws -> Result {
        let hits = HitCounter()
        return try await TestServer.withRouter(KitTestRoutes.router(hits: hits)) { url in
            try await body(KitFixture(baseURL: url, hits: hits))
        }
    }

    /// A client on this fixture with quick retries, over the given transport and cache. Its
    /// timeout is the kit's default (30 s), so a loaded machine does not fail a test that is not
    /// about time; tests of the timeout pass their own.
    func client(
        transport: any HTTPTransport = AsyncHTTPClientTransport(), cache: HTTPCache? = nil,
        retry: RetryPolicy = RetryPolicy(baseDelay: .milliseconds(10), maxDelay: .milliseconds(50)),
        interceptors: [any RequestInterceptor] = [], timeout: Duration = .seconds(30), tracer: (any Tracer)? = nil
    ) -> APIClient {
        var performer = NetworkRequestPerformer(
            transport: transport, interceptors: interceptors, cache: cache, retryPolicy: retry, timeout: timeout)
        performer.tracer = tracer
        return APIClient(baseURL: baseURL, performer: performer)
    }
}

/// A GET for any path, decoding to `Resource`.
struct Get<Resource: Decodable & Sendable>: APIRequest {
    var path: String
    var query: QueryParameters = QueryParameters()
    var headers: [String: String] = [:]
    var cachePolicy: CachePolicy = .useProtocol
    var timeout: Duration?
    var deadline: Duration?
    var parameters: RequestParameters { .url(query) }
}

/// A request with any method, parameters and headers, decoding to `Resource`.
struct Send<Resource: Decodable & Sendable>: APIRequest {
    var path: String
    var method: HTTPMethod
    var parameters: RequestParameters = .none
    var headers: [String: String] = [:]
    var retryPolicy: RetryPolicy?
}

/// A decoded JSON object with one integer, like `{"version": 2}`.
typealias Counted = [String: Int]
