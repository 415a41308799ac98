import BazaarAPI
import Dependencies
import Hummingbird

extension WebApp {
    func addAccountRoutes(to router: Router<BasicRequestContext>) {
        router.get("/signin") { request, context in
            try await page(request, context) { page in
                page.render(SignInView(nav: page.nav(), error: nil, username: ""), "signin")
            }
        }
        router.post("/signin") { request, context in
            try await page(request, context, mutating: true) { page in
                let username = page.form["username"] ?? ""
                if let error = await page.account.signIn(username: username, password: page.form["password"] ?? "") {
                    return page.render(SignInView(nav: page.nav(), error: error.message, username: username), "signin", status: .unauthorized)
                }
                return page.redirect(to: "/products")
            }
        }
        router.post("/register") { request, context in
            try await page(request, context, mutating: true) { page in
                let username = page.form["username"] ?? ""
                if let error = await page.account.register(
                    username: username, displayName: page.form["displayName"] ?? "", password: page.form["password"] ?? "")
                {
                    let status: HTTPResponse.Status = error.kind == .invalidInput ? .unprocessableContent : .badRequest
                    return page.render(SignInView(nav: page.nav(), error: error.message, username: username), "signin", status: status)
                }
                return page.redirect(to: "/products")
            }
        }
        router.post("/signout") { request, context in
            try await page(request, context, mutating: true) { page in
                await page.account.signOut()
                return page.redirect(to: "/products")
            }
        }
        router.get("/profile") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.profileModule.profileScreen().logic
                    return profile(await logic.send(.load), page: page)
                }
            }
        }
        router.post("/profile/name") { request, context in
            try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.profileModule.profileScreen().logic
                    let state = await logic.send(.changeDisplayName(page.form["displayName"] ?? ""))
                    if case .presenting = state { return page.redirect(to: "/profile") }
                    return profile(state, page: page)
                }
            }
        }
    }

    private func profile(_ state: ProfileState, page: WebPage) -> Response {
        switch state {
        case .presenting(let content): page.render(ProfileView(user: content.user, nav: page.nav()), "profile")
        case .failed(let error): page.failed(error)
        case .signedOut, .loading: page.redirect(to: "/signin")
        }
    }
}
