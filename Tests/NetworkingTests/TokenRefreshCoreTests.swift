import Foundation
import HTTPTypes
import Testing

@testable import Networking

/// The token-refresh rules, event by event: no network, no store, no clock, no sleep.
@Suite("TokenRefreshCore: the token-refresh coordinator's pure core")
struct TokenRefreshCoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    /// Expires at t0 + 15 min.
    static let first = AuthTokens(accessToken: "a1", refreshToken: "r1", expiresAt: t0 + 900)
    static let second = AuthTokens(accessToken: "a2", refreshToken: "r2", expiresAt: t0 + 1800)
    static let refused = NetworkError.httpStatus(
        HTTPStatusFailure(status: .unauthorized, headerFields: [:], body: Data(), serverError: nil))
    static let unavailable = NetworkError.httpStatus(
        HTTPStatusFailure(status: .serviceUnavailable, headerFields: [:], body: Data(), serverError: nil))
    static let diskFull = TokenSaveFailure(reason: "disk full")

    typealias Event = TokenRefreshCore.Event
    typealias Effect = TokenRefreshCore.Effect

    /// One row: events from a fresh session on `first` (margin 30 s), the effects of each, and
    /// where the session ends up.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [(Event, [Effect])]
        let phase: TokenRefreshCore.Phase
        var unsaved: TokenSaveFailure? = nil
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "fresh tokens are used as they are", steps: [(.tokensNeeded(now: t0), [.answer(first)])],
            phase: .active(first)),
        Row(
            name: "tokens within the margin are refreshed before use; a second caller joins the same refresh",
            steps: [
                (.tokensNeeded(now: t0 + 880), [.startRefresh(refreshToken: "r1")]),
                (.tokensNeeded(now: t0 + 881), [.joinRefresh]),
                (.rejected(authorization: "Bearer a1"), [.joinRefresh]),
                (.refreshed(second), [.save(second), .answer(second)]),
                (.saved, []),
                (.tokensNeeded(now: t0 + 882), [.answer(second)]),
            ],
            phase: .active(second)),
        Row(
            name: "a 401 with the current tokens refreshes; with older ones, the newer are used without a refresh",
            steps: [
                (.rejected(authorization: "Bearer a1"), [.startRefresh(refreshToken: "r1")]),
                (.refreshed(second), [.save(second), .answer(second)]),
                (.rejected(authorization: "Bearer a1"), [.answer(second)]),
            ],
            phase: .active(second)),
        Row(
            name: "a refused refresh ends the session once: the store is cleared, the app told, every caller refused",
            steps: [
                (.tokensNeeded(now: t0 + 899), [.startRefresh(refreshToken: "r1")]),
                (.refreshFailed(refused), [.clearStore, .reportSessionEnded, .fail(.sessionExpired)]),
                (.tokensNeeded(now: t0 + 900), [.fail(.sessionExpired)]),
                (.rejected(authorization: "Bearer a1"), [.fail(.sessionExpired)]),
            ],
            phase: .ended),
        Row(
            name: "a 503 during refresh fails the callers but keeps the session; the next request tries again",
            steps: [
                (.tokensNeeded(now: t0 + 899), [.startRefresh(refreshToken: "r1")]),
                (.refreshFailed(unavailable), [.fail(unavailable)]),
                (.tokensNeeded(now: t0 + 899), [.startRefresh(refreshToken: "r1")]),
                (.refreshFailed(.noConnection(reason: "down")), [.fail(.noConnection(reason: "down"))]),
            ],
            phase: .active(first)),
        Row(
            name:
                "tokens the store refused stay in use, are saved again before the next use, and are reported until saved",
            steps: [
                (.rejected(authorization: "Bearer a1"), [.startRefresh(refreshToken: "r1")]),
                (.refreshed(second), [.save(second), .answer(second)]),
                (.saveFailed(diskFull), []),
                (.tokensNeeded(now: t0), [.save(second), .answer(second)]),
                (.saveFailed(diskFull), []),
                (.saveUnsavedRequested, [.save(second)]),
            ],
            phase: .active(second), unsaved: diskFull),
        Row(
            name: "a saved retry clears the failure",
            steps: [
                (.saveFailed(diskFull), []),
                (.saveUnsavedRequested, [.save(first)]),
                (.saved, []),
                (.saveUnsavedRequested, []),
            ],
            phase: .active(first)),
        Row(
            name: "signing out during a refresh cancels it and its tokens are never used",
            steps: [
                (.tokensNeeded(now: t0 + 899), [.startRefresh(refreshToken: "r1")]),
                (.invalidated, [.cancelRefresh, .clearStore]),
                (.refreshed(second), [.fail(.sessionExpired)]),
                (.tokensNeeded(now: t0), [.fail(.sessionExpired)]),
            ],
            phase: .ended),
        Row(
            name: "signing out does not report a refused session", steps: [(.invalidated, [.clearStore])], phase: .ended
        ),
    ]

    @Test(arguments: rows)
    func eventsGiveTheirEffects(row: Row) {
        var core = TokenRefreshCore(tokens: Self.first, margin: .seconds(30))
        for (index, (event, effects)) in row.steps.enumerated() {
            #expect(core.handle(event) == effects, "step \(index + 1): \(event)")
        }
        #expect(core.phase == row.phase)
        #expect(core.unsaved == row.unsaved)
    }
}
