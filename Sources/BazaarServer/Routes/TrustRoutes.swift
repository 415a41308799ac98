import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import Hummingbird

/// Blocking, reports and the moderators' queue: `/v1/users/{id}/block`, `/v1/users/me/blocks`,
/// `/v1/reports` and `/v1/moderation/*`. The rules are the services' (``BlockService``,
/// ``ReportService``, ``ModerationService``); these routes parse and answer.
struct TrustRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.blockUser) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            try await deps.services.blocks.block(try context.pathId("The user"), by: caller.userId)
            return Response(status: .noContent)
        }
        router.on(APIRoutes.unblockUser) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            try await deps.services.blocks.unblock(try context.pathId("The user"), by: caller.userId)
            return Response(status: .noContent)
        }
        router.on(APIRoutes.blocks) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let limit = try QueryParameters.limit(request)
            let position = try Cursor.decodeSeq(QueryParameters.cursor(request, "cursor"), kind: .blocks)
            let slice = try await deps.services.blocks.blocked(by: caller.userId, before: position, limit: limit)
            return try JSONResponse.make(
                Page(items: slice.items, nextCursor: slice.next.map { Cursor.encode(.blocks, seq: $0) }))
        }
        router.on(APIRoutes.createReport) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let body = try await RequestBody.decode(CreateReportRequest.self, from: request)
            switch try await deps.services.reports.report(body, by: caller.userId) {
            case .created(let report): return try JSONResponse.make(report, status: .created)
            case .existing(let report): return try JSONResponse.make(report)
            }
        }
        router.on(APIRoutes.myReports) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let limit = try QueryParameters.limit(request)
            let position = try Cursor.decodeSeq(QueryParameters.cursor(request, "cursor"), kind: .reports)
            let slice = try await deps.services.reports.reports(by: caller.userId, before: position, limit: limit)
            return try JSONResponse.make(
                Page(items: slice.items, nextCursor: slice.next.map { Cursor.encode(.reports, seq: $0) }))
        }
        router.on(APIRoutes.moderationReports) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let limit = try QueryParameters.limit(request)
            let status = try Self.status(request)
            let position = try Cursor.decodeSeq(QueryParameters.cursor(request, "cursor"), kind: .reports)
            let slice = try await deps.services.moderation.queue(
                status, after: position, limit: limit, by: caller.userId)
            return try JSONResponse.make(
                Page(items: slice.items, nextCursor: slice.next.map { Cursor.encode(.reports, seq: $0) }))
        }
        router.on(APIRoutes.moderationReport) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let item = try await deps.services.moderation.item(try context.pathId("The report"), by: caller.userId)
            return try JSONResponse.make(item)
        }
        router.on(APIRoutes.resolveReport) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let reportId = try context.pathId("The report")
            let body = try await RequestBody.decode(ResolveReportRequest.self, from: request)
            let report = try await deps.services.moderation.resolve(
                reportId, with: body.action, note: body.note, by: caller.userId)
            return try JSONResponse.make(report)
        }
    }

    /// The `status` query parameter: `open` (the default) or `resolved`.
    static func status(_ request: Request) throws -> ReportStatus {
        guard let text = QueryParameters.string(request, "status") else { return .open }
        guard let status = ReportStatus(rawValue: text) else {
            throw APIError.invalidField("status", "must be open or resolved")
        }
        return status
    }
}
