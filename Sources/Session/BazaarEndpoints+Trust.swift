import BazaarAPI
import Foundation
import Networking

/// Blocking, reports and moderation.
extension BazaarEndpoints {
    /// `PUT /v1/users/{id}/block`: block a user (idempotent): neither of you can then start a
    /// conversation, send a message or an offer to the other.
    public static func blockUser(id: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.put, APIRoutes.blockUser.path(id))
    }

    /// `DELETE /v1/users/{id}/block`: stop blocking a user (idempotent).
    public static func unblockUser(id: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.delete, APIRoutes.unblockUser.path(id))
    }

    /// `GET /v1/users/me/blocks`: a page of the people you blocked, most recent first.
    public static func blocks(cursor: String? = nil, limit: Int? = nil) -> AuthenticatedEndpoint<Page<User>> {
        AuthenticatedEndpoint(.get, APIRoutes.blocks.template, parameters: .url(["cursor": cursor, "limit": limit]))
    }

    /// `POST /v1/reports`: report a user, a product or a message (201 for a new report, 200 with
    /// your open report of the same subject).
    public static func report(_ body: CreateReportRequest) -> AuthenticatedEndpoint<Report> {
        AuthenticatedEndpoint(.post, APIRoutes.createReport.template, parameters: .json(body))
    }

    /// `GET /v1/reports`: a page of your reports with their outcomes, newest first.
    public static func myReports(cursor: String? = nil, limit: Int? = nil) -> AuthenticatedEndpoint<Page<Report>> {
        AuthenticatedEndpoint(
            .get, APIRoutes.myReports.template, parameters: .url(["cursor": cursor, "limit": limit]),
            cachePolicy: .disabled)
    }

    /// `GET /v1/moderation/reports`: a page of the queue, oldest first (moderators only; 404 for
    /// anyone else).
    public static func moderationReports(status: ReportStatus = .open, cursor: String? = nil, limit: Int? = nil)
        -> AuthenticatedEndpoint<Page<Report>>
    {
        AuthenticatedEndpoint(
            .get, APIRoutes.moderationReports.template,
            parameters: .url(["status": status.rawValue, "cursor": cursor, "limit": limit]), cachePolicy: .disabled)
    }

    /// `GET /v1/moderation/reports/{id}`: one report with its subject in context (moderators only).
    public static func moderationReport(id: String) -> AuthenticatedEndpoint<ModerationItem> {
        AuthenticatedEndpoint(.get, APIRoutes.moderationReport.path(id), cachePolicy: .disabled)
    }

    /// `POST /v1/moderation/reports/{id}/resolve`: act on a report (moderators only).
    public static func resolveReport(id: String, _ body: ResolveReportRequest) -> AuthenticatedEndpoint<Report> {
        AuthenticatedEndpoint(
            .post, APIRoutes.resolveReport.path(id), parameters: .json(body), retryPolicy: .never)
    }
}
