import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import Hummingbird
import Logging

/// `/v1/auth/*`: register, login, refresh (rotating, with reuse detection) and logout.
struct AuthRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.register) { request, context in
            try await register(request, address: deps.clientAddress(request, peer: context.clientAddress))
        }
        router.on(APIRoutes.login) { request, context in
            try await login(request, address: deps.clientAddress(request, peer: context.clientAddress))
        }
        router.on(APIRoutes.refresh) { request, context in
            try await refresh(request, address: deps.clientAddress(request, peer: context.clientAddress))
        }
        router.on(APIRoutes.logout) { request, _ in try await logout(request) }
    }

    func register(_ request: Request, address: String?) async throws -> Response {
        let body = try await RequestBody.decode(RegisterRequest.self, from: request)
        // Each new account is a row and a bcrypt hash: counted per address before either.
        if let address { try deps.quotas.charge(.register, by: address) }
        let record = try await deps.services.accounts.register(
            username: body.username, password: body.password, displayName: body.displayName)
        deps.logger.info("registered user", metadata: ["user.id": "\(record.user.id)"])
        let tokens = try await startSession(for: record, request: request)
        return try JSONResponse.make(AuthResponse(user: record.me, tokens: tokens), status: .created)
    }

    func login(_ request: Request, address: String?) async throws -> Response {
        let body = try await RequestBody.decode(LoginRequest.self, from: request)
        // Successful sign-ins cost a bcrypt check too: counted per address, failed or not.
        if let address { try deps.quotas.charge(.signIn, by: address) }
        let record = try await deps.services.accounts.signIn(
            username: body.username, password: body.password, address: address)
        let tokens = try await startSession(for: record, request: request)
        return try JSONResponse.make(AuthResponse(user: record.me, tokens: tokens))
    }

    func refresh(_ request: Request, address: String?) async throws -> Response {
        let body: RefreshRequest
        do {
            body = try await RequestBody.decode(RefreshRequest.self, from: request)
        } catch {
            deps.metrics.recordRefresh(outcome: "malformed")
            throw error
        }
        // Each refresh stores a row: counted per address.
        if let address { try deps.quotas.charge(.refresh, by: address) }
        let newToken = deps.tokens.successorRefreshToken(of: body.refreshToken)
        let outcome = try await deps.store.rotateRefreshToken(
            hash: deps.tokens.hashRefreshToken(body.refreshToken), newHash: deps.tokens.hashRefreshToken(newToken),
            newExpiresAt: deps.tokens.refreshExpiry(), now: deps.now(), reuseInterval: deps.refreshReuseInterval)
        switch outcome {
        case .rotated(let userId, let sessionId):
            deps.metrics.recordRefresh(outcome: "rotated")
            return try await newTokens(userId: userId, sessionId: sessionId, refreshToken: newToken)
        case .replayed(let userId, let sessionId):
            // The same successor again: the client's first answer was lost.
            deps.metrics.recordRefresh(outcome: "replayed")
            return try await newTokens(userId: userId, sessionId: sessionId, refreshToken: newToken)
        case .reused(let sessionId):
            deps.metrics.recordRefresh(outcome: "reused")
            deps.logger.warning("refresh token reused; session revoked", metadata: ["session.id": "\(sessionId)"])
            throw APIError.unauthorized(
                "refresh_token_reused", "The refresh token was already used; the session is revoked.")
        case .invalid:
            deps.metrics.recordRefresh(outcome: "invalid")
            throw APIError.unauthorized("invalid_refresh_token", "The refresh token is not valid.")
        }
    }

    func logout(_ request: Request) async throws -> Response {
        let caller = try await deps.authenticator.authenticate(request)
        try await deps.store.revokeSession(id: caller.sessionId, now: deps.now())
        return Response(status: .noContent)
    }

    /// The answer to a refresh: a new access token for the session, and `refreshToken`.
    private func newTokens(userId: String, sessionId: String, refreshToken: String) async throws -> Response {
        let access = try await deps.tokens.accessToken(userId: userId, sessionId: sessionId)
        return try JSONResponse.make(
            Tokens(accessToken: access.token, refreshToken: refreshToken, expiresAt: access.expiresAt))
    }

    /// A new session for the account `record` (as its password was just checked), named by the
    /// request's `User-Agent`: its first refresh token (stored hashed) and an access token. When
    /// the account was suspended, deleted or given a new password since it was read, no session
    /// starts, and the answer is the one signing in again would get.
    func startSession(for record: UserRecord, request: Request) async throws -> Tokens {
        let userId = record.user.id
        let sessionId = deps.newId()
        let refreshToken = deps.tokens.newRefreshToken()
        let started = try await deps.store.createSession(
            id: sessionId, userId: userId, passwordHash: record.passwordHash,
            refreshTokenHash: deps.tokens.hashRefreshToken(refreshToken), expiresAt: deps.tokens.refreshExpiry(),
            userAgent: SessionService.userAgent(request.headers[.userAgent]), now: deps.now())
        guard started else {
            if try await deps.store.user(id: userId)?.suspendedAt != nil {
                throw APIError(
                    status: .forbidden, code: "account_suspended",
                    message: "This account is suspended by the moderators.")
            }
            throw APIError.unauthorized("invalid_credentials", "The username or password is wrong.")
        }
        let access = try await deps.tokens.accessToken(userId: userId, sessionId: sessionId)
        return Tokens(accessToken: access.token, refreshToken: refreshToken, expiresAt: access.expiresAt)
    }

}
