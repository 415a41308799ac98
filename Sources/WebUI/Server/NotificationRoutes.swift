import BazaarAPI
import Dependencies
import Hummingbird

extension WebApp {
    func addNotificationRoutes(to router: Router<BasicRequestContext>) {
        router.get("/notifications") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.notificationsModule.notificationsScreen().logic
                    return page.show(await logic.send(.load), template: "notifications") {
                        NotificationListView(content: $0, nav: page.nav(live: "/live/notifications"))
                    }
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
                    return await page.live(
                        logic, after: [.load], element: "notification-list", template: "notificationList"
                    ) { state, nav in
                        state.content.map { NotificationListView(content: $0, nav: nav) }
                    }
                }
            }
        }
    }
}
