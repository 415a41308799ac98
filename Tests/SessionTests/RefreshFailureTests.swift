import Foundation
import HTTPTypes
import Hummingbird
import Networking
import Session
import TestSupport
import Testing

/// A stand-in for the far side of the refresh call: it refuses the old token with 401 and answers
/// the refresh itself with `refreshStatus`, as a throttling or failing server would.
enum FlakyAuthServer {
    static func router(refreshStatus: Int, refreshHits: Counter) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/v1/users/me") { _, _ -> Response in
            Response(
                status: .unauthorized, headers: [.contentType: "application/json"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: #"{"error":{"code":"token_expired","message":"The access token has expired."}}"#)))
        }
        router.post("/v1/auth/refresh") { _, _ -> Response in
            refreshHits.increment()
            return Response(
                status: .init(code: refreshStatus), headers: [.contentType: "application/json", .retryAfter: "5"],
                body: .init(
                    byteBuffer: ByteBuffer(string: #"{"error":{"code":"unavailable","message":"Try again later."}}"#)))
        }
        return router
    }
}

@Suite("A failing refresh that is not a refusal")
struct RefreshFailureTests {
    @Test(
        "a 429 or 5xx answer to the refresh call keeps the session and its stored tokens", arguments: [429, 500, 503])
    func transientRefreshFailureKeepsSession(status: Int) async throws {
        let hits = Counter()
        try await TestServer.withRouter(FlakyAuthServer.router(refreshStatus: status, refreshHits: hits)) { url in
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = FileTokenStore(url: folder.appendingPathComponent("tokens.json"))
            let tokens = AuthTokens(
                accessToken: "old", refreshToken: "r1",
                expiresAt: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 600).rounded()))
            try await store.save(tokens)
            let ended = Counter()
            let starter = SessionStarter(
                client: .bazaar(baseURL: url), tokenStore: store, onSessionEnded: { _ in ended.increment() })
            let coordinator = TokenRefreshCoordinator(
                tokens: tokens, refresher: BazaarTokenRefresher(network: starter.publicNetwork), store: store)
            let network = AuthenticatedNetworkController(
                client: .bazaar(baseURL: url), session: coordinator, cachePartition: "u1")
            let errors = await withTaskGroup(of: NetworkError?.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        do throws(NetworkError) {
                            _ = try await network.request(BazaarEndpoints.me)
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(errors.allSatisfy { $0?.status?.code == status && $0?.isRetryable == true })
            #expect(await !coordinator.hasEnded)
            #expect(ended.value == 0)
            #expect(try await store.load() == tokens, "the stored tokens are kept")
        }
    }
}
