import BazaarAPI
import Dependencies
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// `bazaar web`: the app as server-rendered HTML over the same feature modules the terminal uses.
///
/// Each browser gets an opaque `HttpOnly`, `SameSite=Strict` cookie naming its own account (session,
/// tokens, cache and outbox, all kept here); every state-changing request must carry the session's
/// CSRF token and, when the browser sends one, an `Origin` of this app. Pages with live parts name a
/// Server-Sent Events URL; the script swaps the fragments it sends.
public struct WebApp: Sendable {
    static let cookieName = "bazaar_session"
    static let maximumBody = 6 << 20

    let sessions: BrowserSessions
    let renderer: PageRenderer
    let serverURL: URL
    let logger: Logger

    /// Makes the app over `factory`, which builds one account per browser; `serverURL` is the
    /// Bazaar server's, against which its relative links (profile photos) resolve.
    public init(factory: any BrowserAccountFactory, serverURL: URL, logger: Logger = Logger(label: "bazaar.web")) throws
    {
        self.serverURL = serverURL
        sessions = BrowserSessions(factory: factory)
        renderer = try PageRenderer()
        self.logger = logger
    }

    /// The router with every page, form and live route.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.get("/") { _, _ in Response.redirect(to: "/products", type: .found) }
        router.get("/static/app.css") { _, _ in Self.asset(StaticAssets.css, type: "text/css; charset=utf-8") }
        router.get("/static/app.js") { _, _ in
            Self.asset(StaticAssets.javascript, type: "text/javascript; charset=utf-8")
        }
        addAccountRoutes(to: router)
        addProductRoutes(to: router)
        addChatRoutes(to: router)
        addNotificationRoutes(to: router)
        return router
    }

    /// Runs `handle` with the browser's page context, setting the session cookie when it is new.
    func page(
        _ request: Request, _ context: BasicRequestContext, mutating: Bool = false,
        _ handle: @Sendable (WebPage) async throws -> Response
    ) async throws -> Response {
        let cookie = request.headers[.cookie].flatMap(Self.sessionCookie(in:))
        let (session, account, isNew) = try await sessions.session(forCookie: cookie)
        let page = WebPage(
            session: session, account: account, renderer: renderer, serverURL: serverURL,
            user: await account.signedInUser(),
            dependencies: await account.dependencies())
        var response: Response
        if mutating {
            // Forms are small; a photo upload is at most 5 MiB plus its multipart framing.
            let body = Data(try await request.body.collect(upTo: Self.maximumBody).readableBytesView)
            // A multipart body (a file upload) carries its form token in the query instead.
            let isMultipart = request.headers[.contentType]?.lowercased().hasPrefix("multipart/form-data") == true
            let fields = FormFields(isMultipart ? request.uri.query ?? "" : String(decoding: body, as: UTF8.self))
            if let refusal = Self.refusal(request, fields: fields, session: session, isNew: isNew) {
                response = page.html(renderer.render(refusal, "error"), status: .forbidden)
            } else {
                response = try await handle(page.with(form: fields, body: body))
            }
        } else {
            response = try await handle(page)
        }
        if isNew {
            response.headers[.setCookie] = "\(Self.cookieName)=\(session.id); Path=/; HttpOnly; SameSite=Strict"
        }
        SecurityHeaders.apply(to: &response.headers)
        return response
    }

    /// Why a state-changing request is refused (a forged or cross-site post), or `nil`.
    static func refusal(_ request: Request, fields: FormFields, session: BrowserSession, isNew: Bool) -> ErrorView? {
        let nav = NavigationView(user: nil, csrf: session.csrfToken)
        let forged = ErrorView(
            title: "Refused", nav: nav, heading: "That request was refused",
            message: "It did not come from a page of this app (its form token or origin is wrong).",
            suggestion: "Go back, reload the page and try again.")
        if isNew || fields["csrf"] != session.csrfToken { return forged }
        if request.headers.contains(where: { $0.name.canonicalName == "sec-fetch-site" && $0.value == "cross-site" }) {
            return forged
        }
        if let origin = request.headers[.origin], let host = request.head.authority {
            if origin != "http://\(host)" { return forged }
        }
        return nil
    }

    static func sessionCookie(in header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == cookieName { return String(pair[1]) }
        }
        return nil
    }

    static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "max-age=300"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
