import BazaarAPI
import Dependencies
import Foundation
import HTTPTypes
import Hummingbird

extension WebApp {
    /// Blocking, reporting, and the moderators' pages.
    func addTrustRoutes(to router: Router<BasicRequestContext>) {
        for (verb, isBlock) in [("block", true), ("unblock", false)] {
            router.post("/users/{id}/\(verb)") { request, context in
                let id = try context.parameters.require("id")
                return try await page(request, context, mutating: true) { page in
                    try await page.signedIn { _ in
                        let logic = try page.dependencies.accountModule.accountScreen().logic
                        let state = await logic.send(isBlock ? .block(userID: id) : .unblock(userID: id))
                        guard state.content != nil else {
                            return page.failed(
                                state.error ?? ScreenError(kind: .other, message: "Nothing changed."),
                                heading: isBlock ? "Not blocked" : "Not unblocked")
                        }
                        return page.redirect(to: Self.returnAddress(page.form["back"]) ?? "/users/\(id)")
                    }
                }
            }
        }
        router.get("/report") { request, context in
            try await page(request, context) { page in
                await page.signedIn { _ in
                    guard let subject = Self.reportSubject(request.uri.queryParameters) else {
                        return page.failed(
                            ScreenError(kind: .notFound, message: "There is nothing to report there."),
                            heading: "Nothing to report")
                    }
                    return page.render(
                        ReportFormPageView(content: ReportFormContent(subject: subject), nav: page.nav()), "report")
                }
            }
        }
        router.post("/report") { request, context in
            try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    guard
                        let subject = Self.reportSubject(
                            type: page.form["type"] ?? "", id: page.form["id"] ?? "")
                    else {
                        return page.failed(
                            ScreenError(kind: .notFound, message: "There is nothing to report there."),
                            heading: "Nothing to report")
                    }
                    let logic = try page.dependencies.moderationModule.reportFormScreen(subject: subject).logic
                    let state = await logic.send(
                        .submit(ReportDraft(reason: page.form["reason"] ?? "", note: page.form["note"] ?? "")))
                    return page.show(state, template: "report", heading: "The report was not sent") { content in
                        ReportFormPageView(content: content, nav: page.nav())
                    }
                    .withStatus(state.content.map { $0.fieldErrors.isEmpty ? .ok : .unprocessableContent })
                }
            }
        }
        router.get("/moderation") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let status: ReportStatus = request.uri.queryParameters["status"] == "resolved" ? .resolved : .open
                    let logic = try page.dependencies.moderationModule.queueScreen(status: status).logic
                    return page.show(await logic.send(.load), template: "moderation", heading: "No such page") {
                        ModerationQueueView(content: $0, nav: page.nav())
                    }
                }
            }
        }
        router.get("/moderation/{id}") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.moderationModule.reportScreen(reportID: id).logic
                    return page.show(await logic.send(.load), template: "moderationReport", heading: "No such report") {
                        ModerationReportView(content: $0, nav: page.nav())
                    }
                }
            }
        }
        router.post("/moderation/{id}/resolve") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    guard let action = ModerationAction(rawValue: page.form["action"] ?? "") else {
                        return page.failed(
                            ScreenError(kind: .invalidInput, message: "Choose what to do about the report."),
                            heading: "Nothing was done")
                    }
                    let logic = try page.dependencies.moderationModule.reportScreen(reportID: id).logic
                    let state = await logic.send(.resolve(action, note: page.form["note"] ?? ""))
                    if let content = state.content, content.noteError == nil {
                        return page.redirect(to: "/moderation/\(id)")
                    }
                    return page.show(state, template: "moderationReport", heading: "Nothing was done") {
                        ModerationReportView(content: $0, nav: page.nav())
                    }
                    .withStatus(.unprocessableContent)
                }
            }
        }
    }

    /// What a report form names, from its fields: a known kind and a plain id.
    static func reportSubject(type: String, id: String) -> ReportSubject? {
        guard let type = ReportSubjectType(rawValue: type), isPlainID(id) else { return nil }
        return ReportSubject(type, id: id)
    }

    static func reportSubject(_ query: Parameters) -> ReportSubject? {
        reportSubject(type: query["type"].map(String.init) ?? "", id: query["id"].map(String.init) ?? "")
    }

    /// Where a block or unblock form came from, when it is a page of this app: a path of ids and
    /// words, nothing that leaves the site.
    static func returnAddress(_ text: String?) -> String? {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\"), text.count <= 256,
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/-_#".contains($0)) })
        else { return nil }
        return text
    }
}

extension Response {
    /// The same response with `status`, when one is given.
    func withStatus(_ status: HTTPResponse.Status?) -> Response {
        guard let status, self.status == .ok else { return self }
        var copy = self
        copy.status = status
        return copy
    }
}
