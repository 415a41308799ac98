import BazaarAPI
import Foundation
import Networking
import Session
import Synchronization
import TestSupport
import Testing

/// Counts the requests an interceptor is asked to adapt, by path.
final class AdaptCounter: RequestInterceptor {
    private let counts = Mutex([String: Int]())

    func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        counts.withLock { $0[request.url?.path ?? "", default: 0] += 1 }
        return request
    }

    func count(_ path: String) -> Int { counts.withLock { $0[path, default: 0] } }
}

@Suite("Token refresh against the real bazaar-server", .timeLimit(.minutes(2)))
struct TokenRefreshAgainstServerTests {
    /// Sends `count` concurrent requests for the signed-in user and returns their outcomes.
    static func concurrentMe(_ session: UserSession, count: Int) async -> [Result<User, NetworkError>] {
        await withTaskGroup(of: Result<User, NetworkError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(NetworkError) {
                        return .success(try await session.network.request(BazaarEndpoints.me))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("200 concurrent requests with an expired access token cause exactly one refresh on the server")
    func proactiveRefreshIsSingleFlight() async throws {
        let clock = TestClock()
        try await SessionFixture.with(serverClock: clock) { fixture in
            let session = try await fixture.starter(clock: clock).register(
                username: "ada", password: "password123", displayName: "Ada")
            clock.advance(by: .seconds(121))  // past the 120 s access-token lifetime, for server and client
            let outcomes = await Self.concurrentMe(session, count: 200)
            let users = try outcomes.map { try $0.get() }
            #expect(users.count == 200 && users.allSatisfy { $0.username == "ada" })
            #expect(try await fixture.serverRefreshCount() == 1)
        }
    }

    @Test("200 concurrent requests that the server answers 401 share one refresh and are all replayed")
    func reactiveRefreshIsSingleFlight() async throws {
        let serverClock = TestClock()
        try await SessionFixture.with(serverClock: serverClock) { fixture in
            // The client's own clock does not move: it believes the token is still good.
            let session = try await fixture.starter(margin: .zero, clock: TestClock()).register(
                username: "bob", password: "password123", displayName: "Bob")
            serverClock.advance(by: .seconds(121))
            let outcomes = await Self.concurrentMe(session, count: 200)
            let users = try outcomes.map { try $0.get() }
            #expect(users.count == 200 && users.allSatisfy { $0.username == "bob" })
            #expect(try await fixture.serverRefreshCount() == 1)
        }
    }

    @Test("the replay after a 401 is the performer's: the request is not rebuilt, interceptors run once")
    func replayDoesNotRerunThePipeline() async throws {
        let serverClock = TestClock()
        try await SessionFixture.with(serverClock: serverClock) { fixture in
            let counter = AdaptCounter()
            let starter = SessionStarter(
                client: .bazaar(baseURL: fixture.baseURL, performer: NetworkRequestPerformer(interceptors: [counter])),
                tokenStore: InMemoryTokenStore(), refreshMargin: .zero)
            let session = try await starter.register(username: "cyd", password: "password123", displayName: "Cyd")
            serverClock.advance(by: .seconds(121))  // the server refuses the access token; the client does not know
            let me = try await session.network.request(BazaarEndpoints.me)
            #expect(me.username == "cyd")
            #expect(try await fixture.serverRefreshCount() == 1, "a 401 came back and was replayed after one refresh")
            #expect(counter.count("/v1/users/me") == 1)
        }
    }

    @Test("a revoked refresh token ends the session once: every request gets sessionExpired, the token file is gone")
    func revokedRefreshTokenEndsSession() async throws {
        let clock = TestClock()
        try await SessionFixture.with(serverClock: clock) { fixture in
            let ended = Counter()
            let response = try await fixture.raw.register("cyd")
            let session = try await fixture.starter(clock: clock, onSessionEnded: { _ in ended.increment() })
                .start(with: response)
            #expect(FileManager.default.fileExists(atPath: fixture.tokenFile.path))
            // Revoke the session on the server behind the client's back.
            let logout = try await fixture.raw.post("/v1/auth/logout", token: response.tokens.accessToken)
            #expect(logout.status == 204)
            clock.advance(by: .seconds(121))
            let outcomes = await Self.concurrentMe(session, count: 50)
            #expect(outcomes.allSatisfy { if case .failure(.sessionExpired) = $0 { true } else { false } })
            #expect(ended.value == 1)
            #expect(!FileManager.default.fileExists(atPath: fixture.tokenFile.path))
            #expect(try await fixture.serverRefreshCount(outcome: "rotated") == 0)
        }
    }

    @Test("restoring from the token file resumes the session, refreshing the stored tokens")
    func restoreResumesSession() async throws {
        let clock = TestClock()
        try await SessionFixture.with(serverClock: clock) { fixture in
            _ = try await fixture.starter(clock: clock).register(
                username: "dee", password: "password123", displayName: "Dee")
            clock.advance(by: .seconds(121))
            let restored = try #require(try await fixture.starter(clock: clock).restore())
            #expect(await restored.user.user.username == "dee")
            #expect(fixture.cache.memoryUsage == 0, "restoring caches nothing outside the user's partition")
            #expect(try await fixture.serverRefreshCount() == 1)
        }
    }
}
