import BazaarAPI
import Dependencies
import Foundation
import HTTPTypes
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
                let password = page.form["password"] ?? ""
                let started = await sessions.start(replacing: page.signedInSessionID) {
                    await $0.signIn(username: username, password: password)
                }
                switch started {
                case .success(let session): return Self.signedIn(session, page: page)
                case .failure(let error):
                    return page.render(
                        SignInView(nav: page.nav(), error: error.message, username: username), "signin",
                        status: .unauthorized)
                }
            }
        }
        router.post("/register") { request, context in
            try await page(request, context, mutating: true) { page in
                let username = page.form["username"] ?? ""
                let displayName = page.form["displayName"] ?? ""
                let password = page.form["password"] ?? ""
                let started = await sessions.start(replacing: page.signedInSessionID) {
                    await $0.register(username: username, displayName: displayName, password: password)
                }
                switch started {
                case .success(let session): return Self.signedIn(session, page: page)
                case .failure(let error):
                    let status: HTTPResponse.Status = error.kind == .invalidInput ? .unprocessableContent : .badRequest
                    return page.render(
                        SignInView(nav: page.nav(), error: error.message, username: username), "signin", status: status)
                }
            }
        }
        router.post("/signout") { request, context in
            try await page(request, context, mutating: true) { page in
                var error: ScreenError?
                if let id = page.signedInSessionID { error = await sessions.end(id) }
                var response =
                    error.map { page.failed($0, heading: "Signed out, with a problem") }
                    ?? page.redirect(to: "/products")
                response.headers.append(HTTPField(name: .setCookie, value: Self.expiring(Self.sessionCookieName)))
                return response
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
            try await page(request, context, mutating: true) { page in
                try await page.signedIn { user in
                    guard case .success(let photos) = page.photos("photo"), let photo = photos.first else {
                        let view = ProfileView(
                            user: user, error: "Choose a JPEG, PNG or WebP image.", server: page.serverURL,
                            nav: page.nav())
                        return page.render(view, "profile", status: .unprocessableContent)
                    }
                    let logic = try page.dependencies.profileModule.profileScreen().logic
                    let state = await logic.send(.changePhoto(photo.data, photo.mediaType))
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

    /// The answer to a sign-in or registration that started `session`: to the products, with the
    /// new session's cookie in place of the visitor's.
    private static func signedIn(_ session: BrowserSession, page: WebPage) -> Response {
        var response = page.redirect(to: "/products")
        response.headers.append(HTTPField(name: .setCookie, value: setting(sessionCookieName, to: session.id)))
        response.headers.append(HTTPField(name: .setCookie, value: expiring(visitorCookieName)))
        return response
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
