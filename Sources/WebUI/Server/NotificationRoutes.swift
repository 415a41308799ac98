import BazaarAPI
import Dependencies
import Hummingbird

extension WebApp {
    func addNotificationRoutes(to router: Router<BasicRequestContext>) {
        router.get("/notifications") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.notificationsModule.notificationsScreen().logic
                    return notifications(await logic.send(.load), page: page)
                }
            }
        }
        router.post("/notifications/read-all") { request, context in
            try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.notificationsModule.notificationsScreen().logic
                    let state = await logic.send(.markAllRead)
                    return state.error.map { page.failed($0) } ?? page.redirect(to: "/notifications")
                }
            }
        }
        router.post("/notifications/{id}/read") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.notificationsModule.notificationsScreen().logic
                    let state = await logic.send(.markRead(ids: [id]))
                    return state.error.map { page.failed($0) } ?? page.redirect(to: "/notifications")
                }
            }
        }
        router.get("/live/notifications") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.notificationsModule.notificationsScreen().logic
                    await logic.send(.load)
                    let nav = page.nav()
                    return LiveFragments.stream(await logic.states()) { state in
                        state.content.map { content in
                            LiveFragments.Fragment(
                                id: "notification-list",
                                html: page.renderer.render(NotificationListView(content: content, nav: nav), "notificationList"))
                        }
                    }
                }
            }
        }
    }

    private func notifications(_ state: ScreenState<NotificationListContent>, page: WebPage) -> Response {
        switch state {
        case .presenting(let content):
            page.render(NotificationListView(content: content, nav: page.nav(live: "/live/notifications")), "notifications")
        case .failed(let error): page.failed(error)
        case .loading: page.redirect(to: "/notifications")
        }
    }
}
