import Foundation
import HTTPTypes

/// The token-refresh coordinator's rules as a pure state machine: an event in (a caller wants
/// tokens, the server refused some, a refresh ended, a save ended, a sign-out), the effects out
/// (answer with tokens or an error, start or join the one refresh, save, clear, report the
/// session's end). It awaits nothing and reads no clock (the time comes in with the event), so
/// each rule is a row of a table (`TokenRefreshCoreTests`); ``TokenRefreshCoordinator`` performs
/// the effects.
struct TokenRefreshCore: Sendable, Equatable {
    /// Where the session is.
    enum Phase: Sendable, Equatable {
        /// Tokens in use.
        case active(AuthTokens)
        /// One refresh of these tokens is running; callers wait for it.
        case refreshing(AuthTokens)
        /// Ended (a refused refresh, or a sign-out): nothing more is sent.
        case ended
    }

    /// What happened.
    enum Event: Sendable, Equatable {
        /// A caller wants tokens to send a request now.
        case tokensNeeded(now: Date)
        /// The server answered 401 to a request sent with this `Authorization` value.
        case rejected(authorization: String)
        /// The refresh returned these tokens.
        case refreshed(AuthTokens)
        /// The refresh failed.
        case refreshFailed(NetworkError)
        /// The store saved the newest tokens.
        case saved
        /// The store refused the newest tokens.
        case saveFailed(TokenSaveFailure)
        /// Someone asks to save tokens a failed save left in memory.
        case saveUnsavedRequested
        /// The session is ended locally (a sign-out).
        case invalidated
    }

    /// What the coordinator does.
    enum Effect: Sendable, Equatable {
        /// Answers the caller with these tokens.
        case answer(AuthTokens)
        /// Answers the caller with this error.
        case fail(NetworkError)
        /// Starts the one refresh with this refresh token, and answers the caller with its outcome.
        case startRefresh(refreshToken: String)
        /// Answers the caller with the outcome of the refresh already running.
        case joinRefresh
        /// Saves these tokens in the store (and reports ``Event/saved`` or ``Event/saveFailed(_:)``).
        case save(AuthTokens)
        /// Deletes the stored tokens.
        case clearStore
        /// Tells the app the session ended because a refresh was refused (once).
        case reportSessionEnded
        /// Cancels the refresh that is running.
        case cancelRefresh
    }

    /// Where the session is.
    private(set) var phase: Phase
    /// Why the newest tokens are not in the store, while they are not.
    private(set) var unsaved: TokenSaveFailure?
    /// How close to expiry tokens are refreshed before use.
    let margin: Duration

    /// A session starting with `tokens`.
    init(tokens: AuthTokens, margin: Duration) {
        phase = .active(tokens)
        self.margin = margin
    }

    /// Whether the session has ended.
    var hasEnded: Bool { phase == .ended }

    /// The effects of `event`, in the order to perform them; the state moves at once, so a second
    /// caller arriving while they run sees the refresh already started.
    mutating func handle(_ event: Event) -> [Effect] {
        switch (event, phase) {
        case (.tokensNeeded, .refreshing), (.rejected, .refreshing):
            return [.joinRefresh]
        case (.tokensNeeded, .ended), (.rejected, .ended):
            return [.fail(.sessionExpired)]
        case (.tokensNeeded(let now), .active(let tokens)):
            if tokens.expires(within: margin, of: now) { return startRefresh(of: tokens) }
            // Tokens a failed save left in memory are saved again before they are used.
            // One array either way: this is every authenticated request's path.
            return unsaved == nil ? [.answer(tokens)] : [.save(tokens), .answer(tokens)]
        case (.rejected(let authorization), .active(let tokens)):
            // Newer tokens than the refused ones exist (another request refreshed): use them.
            guard tokens.authorizationValue == authorization else { return [.answer(tokens)] }
            return startRefresh(of: tokens)
        case (.refreshed(let fresh), .refreshing):
            phase = .active(fresh)
            return [.save(fresh), .answer(fresh)]
        case (.refreshed, _):
            // Signed out meanwhile: the new tokens are not used.
            return [.fail(.sessionExpired)]
        case (.refreshFailed(let error), .refreshing(let tokens)):
            guard Self.endsSession(error) else {
                // The network, a 429 or a 5xx: the session goes on; the next request tries again.
                phase = .active(tokens)
                return [.fail(error)]
            }
            phase = .ended
            unsaved = nil
            return [.clearStore, .reportSessionEnded, .fail(.sessionExpired)]
        case (.refreshFailed(let error), _):
            return [.fail(Self.endsSession(error) ? .sessionExpired : error)]
        case (.saved, _):
            unsaved = nil
            return []
        case (.saveFailed(let failure), .ended):
            _ = failure
            return []
        case (.saveFailed(let failure), _):
            unsaved = failure
            return []
        case (.saveUnsavedRequested, .active(let tokens)) where unsaved != nil:
            return [.save(tokens)]
        case (.saveUnsavedRequested, _):
            return []
        case (.invalidated, let phase):
            self.phase = .ended
            unsaved = nil
            if case .refreshing = phase { return [.cancelRefresh, .clearStore] }
            return [.clearStore]
        }
    }

    private mutating func startRefresh(of tokens: AuthTokens) -> [Effect] {
        phase = .refreshing(tokens)
        return [.startRefresh(refreshToken: tokens.refreshToken)]
    }

    /// Whether a refresh failure means the refresh token itself was refused.
    static func endsSession(_ error: NetworkError) -> Bool {
        switch error.status?.code {
        case 400, 401, 403: true
        default: error.isSessionExpired
        }
    }
}
