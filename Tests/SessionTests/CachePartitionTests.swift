import BazaarAPI
import Foundation
import Networking
import Session
import TestSupport
import Testing

@Suite("The authenticated cache is partitioned per user", .timeLimit(.minutes(2)))
struct CachePartitionTests {
    /// `GET /v1/users/me`, willing to use any stored answer (an app reading offline).
    static let meFromCache = AuthenticatedEndpoint<User>(.get, APIRoutes.me.template, cachePolicy: .returnCacheElseLoad)

    @Test("after a logout and a login as someone else, nothing of the first user is served")
    func nothingOfTheFirstUserIsServed() async throws {
        try await SessionFixture.with { fixture in
            let starter = fixture.starter()
            let alice = try await starter.register(username: "alice", password: "password123", displayName: "Alice")
            let first = try await alice.network.request(Self.meFromCache)
            #expect(first.username == "alice")
            #expect(fixture.cache.memoryUsage > 0, "alice's answer was cached in her partition")
            await alice.logout()
            #expect(fixture.cache.memoryUsage == 0, "logout wiped alice's partition")

            let bob = try await starter.register(username: "bob", password: "password123", displayName: "Bob")
            let second = try await bob.network.request(Self.meFromCache)
            #expect(second.username == "bob")
        }
    }

    @Test("two signed-in users on one cache never see each other's entries")
    func concurrentUsersAreSeparate() async throws {
        try await SessionFixture.with { fixture in
            let starter = fixture.starter()
            let carol = try await starter.register(username: "carol", password: "password123", displayName: "Carol")
            let dave = try await starter.register(username: "dave", password: "password123", displayName: "Dave")
            let carolMe = try await carol.network.request(Self.meFromCache)
            let daveMe = try await dave.network.request(Self.meFromCache)
            let carolAgain = try await carol.network.request(Self.meFromCache)
            #expect(carolMe.username == "carol" && daveMe.username == "dave" && carolAgain.username == "carol")
        }
    }

    @Test("a no-cache answer is revalidated with its ETag and served from the cache on 304")
    func meIsRevalidated() async throws {
        try await SessionFixture.with { fixture in
            let capture = LogCapture()
            var performer = NetworkRequestPerformer(cache: fixture.cache, logger: capture.logger())
            performer.timeout = .seconds(10)
            let starter = SessionStarter(
                client: .bazaar(baseURL: fixture.baseURL, performer: performer), tokenStore: InMemoryTokenStore())
            let erin = try await starter.register(username: "erin", password: "password123", displayName: "Erin")
            _ = try await erin.network.request(BazaarEndpoints.me)
            let again = try await erin.network.request(BazaarEndpoints.me)
            #expect(again.username == "erin")
            #expect(capture.all.contains { $0.contains("GET /v1/users/me → 200") && $0.contains("revalidated") })
        }
    }
}

@Suite("Tokens stay out of logs and errors")
struct TokenSecrecyTests {
    @Test("a login, refresh and logout logged at trace level never show a token")
    func tokensNeverLogged() async throws {
        let clock = TestClock()
        try await SessionFixture.with(serverClock: clock) { fixture in
            let capture = LogCapture()
            var performer = NetworkRequestPerformer(cache: fixture.cache, logger: capture.logger())
            performer.timeout = .seconds(10)
            let starter = SessionStarter(
                client: .bazaar(baseURL: fixture.baseURL, performer: performer),
                tokenStore: FileTokenStore(url: fixture.tokenFile),
                now: { clock.now() })
            _ = try await fixture.raw.register("finn")
            let session = try await starter.login(username: "finn", password: "password123")
            let original = try #require(try await FileTokenStore(url: fixture.tokenFile).load())
            clock.advance(by: .seconds(121))
            _ = try await session.network.request(BazaarEndpoints.me)
            let rotated = try #require(try await FileTokenStore(url: fixture.tokenFile).load())
            await session.logout()
            let text = capture.all.joined(separator: "\n")
            #expect(text.contains("POST /v1/auth/refresh → 200"))
            for secret in [
                original.accessToken, original.refreshToken, rotated.accessToken, rotated.refreshToken, "password123",
            ] {
                #expect(!text.contains(secret), "a secret reached the log")
            }
            #expect(!"\(rotated)".contains(rotated.accessToken))
        }
    }
}
