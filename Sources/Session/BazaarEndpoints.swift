import BazaarAPI
import Foundation
import Networking

/// Every route of Bazaar's v1 API as a typed endpoint, each in its scope: public routes are
/// `NonAuthenticatedEndpoint`s, the signed-in user's are `AuthenticatedEndpoint`s, so the
/// compiler keeps each with its controller. Paths come from `BazaarAPI.APIRoutes`, which the server
/// routes by too, so client and server cannot drift.
///
/// The live-event WebSocket (`GET /v1/events`) is not a request/response route; the chat module
/// connects to it with the session's access token.
///
/// Here are sign-in, users and operations; the other areas are in extensions, a file each
/// (`BazaarEndpoints+Products`, `+Conversations`, `+Notifications`, `+Trust`, `+Account`).
public enum BazaarEndpoints {
    // MARK: Auth

    /// `POST /v1/auth/register`: a new account and its first tokens.
    public static func register(_ body: RegisterRequest) -> NonAuthenticatedEndpoint<AuthResponse> {
        NonAuthenticatedEndpoint(.post, APIRoutes.register.template, parameters: .json(body), retryPolicy: .never)
    }

    /// `POST /v1/auth/login`: tokens for an existing account.
    public static func login(_ body: LoginRequest) -> NonAuthenticatedEndpoint<AuthResponse> {
        NonAuthenticatedEndpoint(.post, APIRoutes.login.template, parameters: .json(body), retryPolicy: .never)
    }

    /// `POST /v1/auth/refresh`: new tokens for a refresh token (which rotates). Never retried: a
    /// replayed refresh token counts as reuse and would end the session.
    public static func refresh(_ refreshToken: String) -> NonAuthenticatedEndpoint<Tokens> {
        NonAuthenticatedEndpoint(
            .post, APIRoutes.refresh.template, parameters: .json(RefreshRequest(refreshToken: refreshToken)),
            cachePolicy: .disabled, retryPolicy: .never)
    }

    /// `POST /v1/auth/logout`: revokes the session's refresh tokens.
    public static let logout = AuthenticatedEndpoint<EmptyResponse>(
        .post, APIRoutes.logout.template, retryPolicy: .never)

    // MARK: Users

    /// `GET /v1/users/me`: the signed-in user.
    public static let me = AuthenticatedEndpoint<User>(.get, APIRoutes.me.template)

    /// `PATCH /v1/users/me`: change the display name or bio.
    public static func updateMe(_ body: UpdateProfileRequest) -> AuthenticatedEndpoint<User> {
        AuthenticatedEndpoint(.patch, APIRoutes.updateMe.template, parameters: .json(body))
    }

    /// `PUT /v1/users/me/photo`: upload a profile photo (JPEG, PNG or WebP bytes).
    public static func uploadPhoto(_ bytes: Data, mediaType: MediaType) -> AuthenticatedEndpoint<User> {
        AuthenticatedEndpoint(.put, APIRoutes.uploadPhoto.template, parameters: .raw(bytes, mediaType: mediaType))
    }

    /// `GET /v1/users/{id}`: anyone's public profile.
    public static func user(id: String) -> NonAuthenticatedEndpoint<User> {
        NonAuthenticatedEndpoint(.get, APIRoutes.user.path(id))
    }

    /// `GET /v1/users/{id}/photo`: a user's photo bytes (cached, revalidated by ETag).
    public static func userPhoto(id: String) -> NonAuthenticatedEndpoint<Data> {
        NonAuthenticatedEndpoint(.get, APIRoutes.userPhoto.path(id))
    }

    // MARK: Operations

    /// `GET /health`: this server and its database answer (503 when the database does not).
    public static let health = NonAuthenticatedEndpoint<Data>(.get, APIRoutes.health.template, cachePolicy: .disabled)

    /// `GET /health/live`: the process answers (200 whatever its database does).
    public static let healthLive = NonAuthenticatedEndpoint<Data>(
        .get, APIRoutes.healthLive.template, cachePolicy: .disabled)

    /// `GET /health/ready`: the server should get traffic (database reachable, not draining); 503 otherwise.
    public static let healthReady = NonAuthenticatedEndpoint<Data>(
        .get, APIRoutes.healthReady.template, cachePolicy: .disabled)

    /// `GET /metrics`: Prometheus text.
    public static let metrics = NonAuthenticatedEndpoint<Data>(.get, APIRoutes.metrics.template, cachePolicy: .disabled)
}
