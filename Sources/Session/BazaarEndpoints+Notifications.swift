import BazaarAPI
import Foundation
import Networking

/// The signed-in user's notifications.
extension BazaarEndpoints {
    /// `GET /v1/notifications`: a page of the signed-in user's notifications.
    public static func notifications(cursor: String? = nil, limit: Int? = nil)
        -> AuthenticatedEndpoint<Page<BazaarAPI.Notification>>
    {
        AuthenticatedEndpoint(
            .get, APIRoutes.notifications.template, parameters: .url(["cursor": cursor, "limit": limit]))
    }

    /// `POST /v1/notifications/read`: mark some or all notifications read.
    public static func markNotificationsRead(_ body: MarkNotificationsReadRequest) -> AuthenticatedEndpoint<
        EmptyResponse
    > {
        AuthenticatedEndpoint(.post, APIRoutes.markNotificationsRead.template, parameters: .json(body))
    }
}
