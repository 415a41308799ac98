import Foundation
import HTTPTypes
import Networking
import Synchronization
import TestSupport
import Testing

/// A refresher on the far side of the seam: counts calls, answers after a pause, or fails as told.
final class ScriptedRefresher: TokenRefresher {
    enum Outcome: Sendable {
        case succeed
        case fail(NetworkError)
    }

    private let state = Mutex((calls: 0, outcome: Outcome.succeed))
    var calls: Int { state.withLock { $0.calls } }

    func answer(with outcome: Outcome) { state.withLock { $0.outcome = outcome } }

    func refresh(using refreshToken: String) async throws(NetworkError) -> AuthTokens {
        let (call, outcome) = state.withLock { state in
            state.calls += 1
            return (state.calls, state.outcome)
        }
        try? await Task.sleep(for: .milliseconds(50))
        switch outcome {
        case .succeed:
            return AuthTokens(accessToken: "access-\(call)", refreshToken: "refresh-\(call)", expiresAt: Date() + 600)
        case .fail(let error):
            throw error
        }
    }
}

/// A token store on the far side of the seam that refuses writes while told to.
actor FailingTokenStore: TokenStore {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    private(set) var saved: AuthTokens?
    private(set) var attempts = 0
    var failing = true

    func setFailing(_ failing: Bool) { self.failing = failing }
    func load() -> AuthTokens? { saved }
    func save(_ tokens: AuthTokens) throws {
        attempts += 1
        if failing { throw Refused() }
        saved = tokens
    }
    func clear() throws {
        if failing { throw Refused() }
        saved = nil
    }
}

@Suite("TokenRefreshCoordinator")
struct TokenRefreshCoordinatorTests {
    let expired = AuthTokens(accessToken: "access-0", refreshToken: "refresh-0", expiresAt: Date() - 5)
    let valid = AuthTokens(accessToken: "access-0", refreshToken: "refresh-0", expiresAt: Date() + 600)

    static func httpFailure(_ code: Int) -> NetworkError {
        .httpStatus(HTTPStatusFailure(status: .init(code: code), headerFields: [:], body: Data(), serverError: nil))
    }

    @Test("200 concurrent callers with an expired token share exactly one refresh")
    func singleFlightProactiveRefresh() async throws {
        let refresher = ScriptedRefresher()
        let coordinator = TokenRefreshCoordinator(tokens: expired, refresher: refresher, store: InMemoryTokenStore())
        let tokens = try await withThrowingTaskGroup(of: AuthTokens.self) { group in
            for _ in 0..<200 { group.addTask { try await coordinator.validTokens() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(refresher.calls == 1)
        #expect(Set(tokens.map(\.accessToken)) == ["access-1"])
    }

    @Test("a token far from expiry is used as it is")
    func validTokenIsNotRefreshed() async throws {
        let refresher = ScriptedRefresher()
        let coordinator = TokenRefreshCoordinator(tokens: valid, refresher: refresher, store: InMemoryTokenStore())
        #expect(try await coordinator.validTokens() == valid)
        #expect(refresher.calls == 0)
    }

    @Test("the Authorization field follows the access token: the same while it lasts, the new one after a refresh")
    func authorizationFieldFollowsTheToken() async throws {
        let coordinator = TokenRefreshCoordinator(
            tokens: valid, refresher: ScriptedRefresher(), store: InMemoryTokenStore())
        let first = try await coordinator.authorizationField()
        #expect(first == HTTPField(name: .authorization, value: "Bearer access-0"))
        #expect(try await coordinator.authorizationField() == first)
        _ = try await coordinator.tokens(replacing: valid)
        #expect(try await coordinator.authorizationField() == HTTPField(name: .authorization, value: "Bearer access-1"))
        #expect(try await coordinator.authorization() == "Bearer access-1")
    }

    @Test("after a 401 for an older token the current one is returned without another refresh")
    func staleRejectionReusesCurrentTokens() async throws {
        let refresher = ScriptedRefresher()
        let coordinator = TokenRefreshCoordinator(tokens: valid, refresher: refresher, store: InMemoryTokenStore())
        let first = try await coordinator.tokens(replacing: valid)
        let second = try await coordinator.tokens(replacing: valid)
        #expect(first.accessToken == "access-1" && second.accessToken == "access-1")
        #expect(refresher.calls == 1)
    }

    @Test("a refused refresh ends the session once: every caller gets sessionExpired, the store is cleared")
    func refusedRefreshEndsSession() async throws {
        let refresher = ScriptedRefresher()
        refresher.answer(with: .fail(Self.httpFailure(401)))
        let store = InMemoryTokenStore(expired)
        let ended = Counter()
        let coordinator = TokenRefreshCoordinator(
            tokens: expired, refresher: refresher, store: store, onSessionEnded: { ended.increment() })
        let errors = await withTaskGroup(of: NetworkError?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do throws(NetworkError) {
                        _ = try await coordinator.validTokens()
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.allSatisfy { $0?.isSessionExpired == true })
        #expect(ended.value == 1)
        #expect(refresher.calls == 1)
        #expect(await store.load() == nil)
        #expect(await coordinator.hasEnded)
    }

    @Test(
        "a network failure, 429 or 5xx during refresh is not a logout",
        arguments: [
            NetworkError.noConnection(reason: "refused"), httpFailure(429), httpFailure(503),
        ])
    func transientRefreshFailureKeepsSession(failure: NetworkError) async throws {
        let refresher = ScriptedRefresher()
        refresher.answer(with: .fail(failure))
        let ended = Counter()
        let store = InMemoryTokenStore(expired)
        let coordinator = TokenRefreshCoordinator(
            tokens: expired, refresher: refresher, store: store, onSessionEnded: { ended.increment() })
        await #expect(throws: NetworkError.self) { try await coordinator.validTokens() }
        #expect(ended.value == 0)
        #expect(await store.load() == expired)
        refresher.answer(with: .succeed)
        #expect(try await coordinator.validTokens().accessToken == "access-2")
    }

    @Test("rotated tokens are saved to the store")
    func savesRotatedTokens() async throws {
        let store = InMemoryTokenStore(expired)
        let coordinator = TokenRefreshCoordinator(tokens: expired, refresher: ScriptedRefresher(), store: store)
        _ = try await coordinator.validTokens()
        #expect(await store.load()?.accessToken == "access-1")
    }

    @Test("a refreshed pair the store refuses stays in use, is reported, and is saved on the next request")
    func unsavedTokensAreKeptAndSavedAgain() async throws {
        let refresher = ScriptedRefresher()
        let store = FailingTokenStore()
        let coordinator = TokenRefreshCoordinator(tokens: expired, refresher: refresher, store: store)
        let fresh = try await coordinator.validTokens()
        #expect(fresh.refreshToken == "refresh-1")
        #expect(await coordinator.tokenSaveFailure == TokenSaveFailure(reason: "disk full"))
        await #expect(throws: TokenSaveFailure(reason: "disk full")) { try await coordinator.saveUnsavedTokens() }
        // Still failing: the next request uses the kept pair (no second refresh) and tries the save again.
        #expect(try await coordinator.validTokens() == fresh)
        #expect(refresher.calls == 1)
        let attemptsSoFar = await store.attempts
        #expect(attemptsSoFar == 3)

        await store.setFailing(false)
        #expect(try await coordinator.validTokens() == fresh)
        #expect(await store.saved == fresh)
        #expect(await coordinator.tokenSaveFailure == nil)
        try await coordinator.saveUnsavedTokens()
        #expect(await store.attempts == 4, "nothing left to save: no further write")
    }

    @Test("a store refusal reads as a sentence that says what happens next")
    func tokenSaveFailureText() {
        #expect(
            TokenSaveFailure(reason: "disk full.").description
                == "Your renewed sign-in could not be saved (disk full), so the next start will ask you to sign in again."
        )
    }

    @Test("tokens never appear in descriptions")
    func tokensAreRedacted() {
        let text = "\(valid) \(String(reflecting: valid))"
        #expect(!text.contains("access-0") && !text.contains("refresh-0"))
    }
}
