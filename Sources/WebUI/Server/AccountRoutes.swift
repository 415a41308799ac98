import BazaarAPI
import Dependencies
import Foundation
import Hummingbird
import Networking

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
                    return page.render(
                        SignInView(nav: page.nav(), error: error.message, username: username), "signin",
                        status: .unauthorized)
                }
                return page.redirect(to: "/products")
            }
        }
        router.post("/register") { request, context in
            try await page(request, context, mutating: true) { page in
                let username = page.form["username"] ?? ""
                if let error = await page.account.register(
                    username: username, displayName: page.form["displayName"] ?? "",
                    password: page.form["password"] ?? "")
                {
                    let status: HTTPResponse.Status = error.kind == .invalidInput ? .unprocessableContent : .badRequest
                    return page.render(
                        SignInView(nav: page.nav(), error: error.message, username: username), "signin", status: status)
                }
                return page.redirect(to: "/products")
            }
        }
        router.post("/signout") { request, context in
            try await page(request, context, mutating: true) { page in
                if let error = await page.account.signOut() {
                    return page.failed(error, heading: "Signed out, with a problem")
                }
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
        router.post("/profile/photo") { request, context in
            let contentType = request.headers[.contentType] ?? ""
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { user in
                    guard let file = MultipartFile(field: "photo", in: page.body, contentType: contentType),
                        let mediaType = MediaType.image(sniffing: file.bytes)
                    else {
                        let view = ProfileView(
                            user: user, error: "Choose a JPEG, PNG or WebP image.", server: page.serverURL,
                            nav: page.nav())
                        return page.render(view, "profile", status: .unprocessableContent)
                    }
                    let logic = try page.dependencies.profileModule.profileScreen().logic
                    let state = await logic.send(.changePhoto(file.bytes, mediaType))
                    if case .presenting = state { return page.redirect(to: "/profile") }
                    return profile(state, page: page)
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
        case .presenting(let content):
            return page.render(ProfileView(user: content.user, server: page.serverURL, nav: page.nav()), "profile")
        case .failed(let error):
            // A refused name or photo is shown on the form, with the person's profile around it.
            guard error.kind == .invalidInput, let user = page.user else { return page.failed(error) }
            return page.render(
                ProfileView(user: user, error: error.message, server: page.serverURL, nav: page.nav()), "profile",
                status: .unprocessableContent)
        case .signedOut, .loading:
            return page.redirect(to: "/signin")
        }
    }
}
