import Foundation
import HTTPTypes
import Logging

/// Exchanges a refresh token for new tokens. Implemented over a non-authenticated endpoint, so the
/// refresh call can never wait behind the refresh it performs.
public protocol TokenRefresher: Sendable {
    /// Returns new tokens for `refreshToken`, or throws what the server or network said.
    func refresh(using refreshToken: String) async throws(NetworkError) -> AuthTokens
}

/// The one place a session's tokens are kept fresh: every authenticated request goes through it.
///
/// - Proactive: a token within `margin` of expiry is refreshed before it is used.
/// - Reactive: after a 401, the request is replayed once with a newer token; if a newer one already
///   exists (another request refreshed meanwhile) it is used without a second refresh.
/// - Any number of concurrent callers share one refresh call (single flight).
/// - A refused refresh (the refresh token is spent, revoked or expired) ends the session: stored
///   tokens are cleared, every waiting caller gets ``NetworkError/sessionExpired``, and
///   `onSessionEnded` is called exactly once. A network failure, a 429 or a 5xx during refresh does
///   not end the session: the callers get that error and the next request tries again.
/// - A refreshed pair the store cannot save is kept in memory and used (the old refresh token is
///   spent), logged, and saved again before the next request; ``saveUnsavedTokens()`` tries now and
///   throws ``TokenSaveFailure`` while it still fails, so an app can warn before it exits.
public actor TokenRefreshCoordinator {
    /// The rules: every decision is the core's; this actor performs its effects.
    private var core: TokenRefreshCore
    private var inFlight: Task<Result<AuthTokens, NetworkError>, Never>?
    /// The `Authorization` field of the access token handed out last, so a request does not join
    /// the token into a new string and check its bytes again: the token changes once a refresh.
    private var lastField: (accessToken: String, field: HTTPField)?
    private let logger: Logger

    private let refresher: any TokenRefresher
    private let store: any TokenStore
    private let now: @Sendable () -> Date
    private let onSessionEnded: @Sendable () async -> Void

    /// Makes a coordinator for a session that starts with `tokens`.
    ///
    /// - Parameters:
    ///   - tokens: the session's tokens as stored or just issued.
    ///   - refresher: exchanges a refresh token for new tokens.
    ///   - store: where refreshed tokens are saved (and cleared when the session ends).
    ///   - margin: how close to expiry a token is refreshed before use.
    ///   - now: the clock expiry is judged by.
    ///   - onSessionEnded: called once when the session ends because a refresh was refused.
    ///   - logger: where a store that refuses to save or clear is reported.
    public init(
        tokens: AuthTokens, refresher: any TokenRefresher, store: any TokenStore,
        margin: Duration = .seconds(30), now: @escaping @Sendable () -> Date = { Date() },
        onSessionEnded: @escaping @Sendable () async -> Void = {},
        logger: Logger = Logger(label: "bazaar.session")
    ) {
        core = TokenRefreshCore(tokens: tokens, margin: margin)
        self.logger = logger
        self.refresher = refresher
        self.store = store
        self.now = now
        self.onSessionEnded = onSessionEnded
    }

    /// Whether the session has ended.
    public var hasEnded: Bool { core.hasEnded }

    /// Why the newest tokens are not in the store yet, or `nil` when they are.
    public var tokenSaveFailure: TokenSaveFailure? { core.unsaved }

    /// Saves tokens a failed save left in memory only; throws while the store still refuses them.
    public func saveUnsavedTokens() async throws(TokenSaveFailure) {
        _ = await perform(core.handle(.saveUnsavedRequested))
        if let unsaved = core.unsaved, !core.hasEnded { throw unsaved }
    }

    /// Tokens to use now, refreshed first if they are about to expire.
    public func validTokens() async throws(NetworkError) -> AuthTokens {
        try await answer(core.handle(.tokensNeeded(now: now())))
    }

    /// Tokens to replay a request with after the server refused `rejected` with a 401.
    ///
    /// Returns the current tokens when they are already newer than `rejected`; otherwise refreshes.
    public func tokens(replacing rejected: AuthTokens) async throws(NetworkError) -> AuthTokens {
        try await tokens(replacingAuthorization: rejected.authorizationValue)
    }

    /// Like ``tokens(replacing:)``, for the rejected `Authorization` value.
    func tokens(replacingAuthorization rejected: String) async throws(NetworkError) -> AuthTokens {
        try await answer(core.handle(.rejected(authorization: rejected)))
    }

    /// Ends the session locally (a sign-out): forgets the tokens without calling `onSessionEnded`.
    public func invalidate() async {
        _ = await perform(core.handle(.invalidated))
    }

    /// `tokens`' `Authorization` field, from ``lastField`` while the access token is the same.
    func field(for tokens: AuthTokens) -> HTTPField {
        if let lastField, lastField.accessToken == tokens.accessToken { return lastField.field }
        let field = HTTPField(name: .authorization, value: tokens.authorizationValue)
        lastField = (tokens.accessToken, field)
        return field
    }

    /// Performs `effects` and returns the caller's answer.
    private func answer(_ effects: [TokenRefreshCore.Effect]) async throws(NetworkError) -> AuthTokens {
        guard let result = await perform(effects) else { throw .sessionExpired }
        return try result.get()
    }

    /// Performs `effects` in order; the answer they give the caller, if any.
    private func perform(_ effects: [TokenRefreshCore.Effect]) async -> Result<AuthTokens, NetworkError>? {
        var answer: Result<AuthTokens, NetworkError>?
        for effect in effects {
            switch effect {
            case .answer(let tokens): answer = .success(tokens)
            case .fail(let error): answer = .failure(error)
            case .startRefresh(let refreshToken):
                // Stored before any await, so every caller the core sends to join finds it.
                let task = Task { await self.performRefresh(using: refreshToken) }
                inFlight = task
                answer = await task.value
            case .joinRefresh:
                answer = await inFlight?.value ?? .failure(.sessionExpired)
            case .save(let tokens): await save(tokens)
            case .clearStore: await clearStore()
            case .reportSessionEnded: await onSessionEnded()
            case .cancelRefresh: inFlight?.cancel()
            }
        }
        return answer
    }

    /// Runs once per refresh; every caller awaits its result.
    private func performRefresh(using refreshToken: String) async -> Result<AuthTokens, NetworkError> {
        let outcome: TokenRefreshCore.Event
        do throws(NetworkError) {
            outcome = .refreshed(try await refresher.refresh(using: refreshToken))
        } catch {
            outcome = .refreshFailed(error)
        }
        let effects = core.handle(outcome)
        // No caller joins this refresh any more (the core has left `refreshing`), and a refresh
        // started while its effects run must not find its task cleared by this one.
        inFlight = nil
        return await perform(effects) ?? .failure(.sessionExpired)
    }

    /// Saves `tokens`; a refusal keeps them in use (the core remembers it) and is logged.
    private func save(_ tokens: AuthTokens) async {
        let hadFailed = core.unsaved != nil
        do {
            try await store.save(tokens)
            _ = core.handle(.saved)
            if hadFailed { logger.notice("refreshed tokens saved after an earlier failure") }
        } catch {
            _ = core.handle(.saveFailed(TokenSaveFailure(reason: "\(error)")))
            logger.error(
                "refreshed tokens could not be saved; kept in memory and retried", metadata: ["error": "\(error)"])
        }
    }

    /// Deletes the stored tokens. A failure is logged: what stays on disk was revoked or spent, so
    /// the next launch is refused by the server and ends the session there.
    private func clearStore() async {
        do {
            try await store.clear()
        } catch {
            logger.error("stored tokens could not be deleted", metadata: ["error": "\(error)"])
        }
    }
}

extension NetworkError {
    /// Whether this is ``sessionExpired``.
    public var isSessionExpired: Bool {
        if case .sessionExpired = self { true } else { false }
    }
}

/// The token store refused the newest tokens: they are in use, but a restart would present a spent
/// refresh token (and the server would end the session) unless a later save succeeds.
public struct TokenSaveFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the store said.
    public var reason: String

    /// Makes a failure saying `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    /// A sentence for a person.
    public var description: String {
        Sentence.end(
            "Your renewed sign-in could not be saved (\(Sentence.trimmed(reason))), so the next start will ask you to sign in again"
        )
    }
}
