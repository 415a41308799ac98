import BazaarAPI
import Dependencies
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension WebApp {
    /// The account settings: sessions, password, blocked people, export and deletion.
    func addSettingsRoutes(to router: Router<BasicRequestContext>) {
        router.get("/account") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in try await settings(.load, page: page) }
            }
        }
        router.post("/account/password") { request, context in
            try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    try await settings(
                        .changePassword(
                            current: page.form["currentPassword"] ?? "", new: page.form["newPassword"] ?? ""),
                        page: page)
                }
            }
        }
        router.post("/account/sessions/end-others") { request, context in
            try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in try await settings(.endOtherSessions, page: page) }
            }
        }
        router.post("/account/sessions/{id}/end") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in try await settings(.endSession(id: id), page: page) }
            }
        }
        router.post("/account/blocks/{id}/unblock") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in try await settings(.unblock(userID: id), page: page) }
            }
        }
        router.get("/account/export") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let module = try page.dependencies.accountModule
                    do throws(ScreenError) {
                        let archive = try await module.exportArchive()
                        var headers = HTTPFields()
                        headers[.contentType] = "application/zip"
                        headers[.contentDisposition] = "attachment; filename=\"bazaar-export.zip\""
                        headers[.cacheControl] = "private, no-store"
                        return Response(
                            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: archive)))
                    } catch {
                        return page.failed(error, heading: "The export could not be made")
                    }
                }
            }
        }
        router.post("/account/delete") { request, context in
            try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.accountModule.accountScreen().logic
                    let state = await logic.send(.delete(password: page.form["password"] ?? ""))
                    guard let content = state.content, content.deleted else {
                        return show(state, page: page)
                    }
                    // The account is gone on the server: this browser signs out too.
                    if let id = page.signedInSessionID { _ = await sessions.end(id) }
                    var response = page.render(
                        AccountDeletedView(nav: NavigationView(user: nil, csrf: page.session.csrfToken)),
                        "accountDeleted")
                    response.headers.append(HTTPField(name: .setCookie, value: Self.expiring(Self.sessionCookieName)))
                    return response
                }
            }
        }
    }

    /// Runs `action` on the account screen and draws what it left (a refused password beside its
    /// field, with 422).
    private func settings(_ action: AccountAction, page: WebPage) async throws -> Response {
        let logic = try page.dependencies.accountModule.accountScreen().logic
        return show(await logic.send(action), page: page)
    }

    private func show(_ state: ScreenState<AccountContent>, page: WebPage) -> Response {
        guard let content = state.content else {
            return page.show(state, template: "account", heading: "Your account") { _ in () }
        }
        let status: HTTPResponse.Status = content.fieldErrors.isEmpty ? .ok : .unprocessableContent
        return page.render(AccountSettingsView(content: content, nav: page.nav()), "account", status: status)
    }
}
