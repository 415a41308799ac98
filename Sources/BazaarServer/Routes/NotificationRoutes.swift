import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import Hummingbird

/// `/v1/notifications*`: the caller's notifications and marking them read.
struct NotificationRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.notifications) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let limit = try QueryParameters.limit(request)
            let position = try Cursor.decodeSeq(QueryParameters.cursor(request, "cursor"), kind: .notifications)
            let slice = try await deps.store.notifications(userId: caller.userId, before: position, limit: limit)
            return try JSONResponse.make(
                Page(items: slice.items, nextCursor: slice.next.map { Cursor.encode(.notifications, seq: $0) }))
        }
        router.on(APIRoutes.markNotificationsRead) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let body = try await RequestBody.decode(MarkNotificationsReadRequest.self, from: request)
            try deps.quotas.charge(.edit, by: caller.userId)
            // The list's limit holds even beside `all: true`, which makes the list moot: a body
            // the contract calls invalid is refused whatever else it says.
            if let ids = body.ids, ids.count > 500 { throw APIError.invalidField("ids", "may list at most 500 ids") }
            switch (body.ids, body.all) {
            case (_, true?):
                try await deps.store.markNotificationsRead(userId: caller.userId, ids: nil)
            case (let ids?, _):
                // An id that names none of the caller's notifications is ignored, and one that is
                // not an id at all (a NUL, 3 KB) names none: it never reaches the store.
                try await deps.store.markNotificationsRead(userId: caller.userId, ids: ids.filter(Validation.isId))
            default:
                throw APIError.invalidField("body", "must have either ids or all: true")
            }
            return Response(status: .noContent)
        }
    }
}
