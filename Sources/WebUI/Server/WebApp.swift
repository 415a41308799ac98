import BazaarAPI
import Dependencies
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// `bazaar web`: the app as server-rendered HTML over the same feature modules the terminal uses.
///
/// A visitor who has not signed in costs nothing: pages are drawn with one shared, signed-out
/// stack, and the visitor's cookie and form token are random and signed, not stored. A sign-in or
/// registration makes the browser an account of its own (session, tokens, cache and outbox, all
/// kept here) under a new opaque `HttpOnly`, `SameSite=Strict` cookie. Every state-changing request
/// must carry the session's CSRF token and, when the browser sends one, an `Origin` of this app;
/// every request must name one of the app's host names. Pages with live parts name a Server-Sent
/// Events URL; the script swaps the fragments it sends.
public struct WebApp: Sendable {
    static let sessionCookieName = "bazaar_session"
    static let visitorCookieName = "bazaar_visitor"
    /// A form's body: text fields, or a visitor's anything.
    static let maximumForm = 1 << 20
    /// A signed-in browser's multipart body: up to a listing's eight photos of 5 MiB, and framing.
    static let maximumUpload = (Product.photoLimit * 5 + 1) << 20

    let sessions: BrowserSessions
    let renderer: PageRenderer
    let serverURL: URL
    let hostNames: HostNames
    let logger: Logger

    /// Makes the app over `factory`, which builds the accounts; `serverURL` is the Bazaar
    /// server's, against which its relative links (profile photos) resolve. Requests must name one
    /// of `hostNames`; signed-in browsers are kept within `limits`, timed by `clock`.
    public init<C: Clock<Duration>>(
        factory: any BrowserAccountFactory, serverURL: URL, hostNames: HostNames = HostNames(),
        limits: SessionLimits = SessionLimits(), clock: C = ContinuousClock(),
        logger: Logger = Logger(label: "bazaar.web")
    ) throws {
        self.serverURL = serverURL
        self.hostNames = hostNames
        sessions = BrowserSessions(factory: factory, limits: limits, clock: clock)
        renderer = try PageRenderer()
        self.logger = logger
    }

    /// Signs out every browser, revoking their sessions: what the app does as it stops.
    public func endAllSessions() async {
        await sessions.endAll()
    }

    /// How many browsers are signed in now.
    public var signedInCount: Int {
        get async { await sessions.signedInCount }
    }

    /// The router with every page, form and live route.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: HostCheck(hostNames: hostNames))
        router.get("/") { _, _ in Response.redirect(to: "/products", type: .found) }
        router.get("/static/app.css") { _, _ in Self.asset(StaticAssets.css, type: "text/css; charset=utf-8") }
        router.get("/static/app.js") { _, _ in
            Self.asset(StaticAssets.javascript, type: "text/javascript; charset=utf-8")
        }
        addAccountRoutes(to: router)
        addProductRoutes(to: router)
        addListingRoutes(to: router)
        addListingPhotoRoutes(to: router)
        addSellerRoutes(to: router)
        addChatRoutes(to: router)
        addNotificationRoutes(to: router)
        addSettingsRoutes(to: router)
        addTrustRoutes(to: router)
        return router
    }

    /// Runs `handle` with the browser's page context, setting the visitor cookie when it is new and
    /// deleting a session cookie this process does not know.
    func page(
        _ request: Request, _ context: BasicRequestContext, mutating: Bool = false,
        _ handle: @Sendable (WebPage) async throws -> Response
    ) async throws -> Response {
        let cookies = request.headers[.cookie] ?? ""
        let visit = try await sessions.visit(
            sessionCookie: Self.cookie(Self.sessionCookieName, in: cookies),
            visitorCookie: Self.cookie(Self.visitorCookieName, in: cookies))
        let page = WebPage(
            session: visit.session, account: visit.account, renderer: renderer, serverURL: serverURL,
            user: await visit.account?.signedInUser(), dependencies: visit.dependencies)
        var response: Response
        if mutating {
            // Forms are small; only a signed-in browser's multipart post (photos) may be large.
            let isMultipart = request.headers[.contentType]?.lowercased().hasPrefix("multipart/form-data") == true
            let limit = isMultipart && visit.account != nil ? Self.maximumUpload : Self.maximumForm
            let body = Data(try await request.body.collect(upTo: limit).readableBytesView)
            // A multipart body (a file upload) has its text fields among its parts, and may carry
            // its form token in the query.
            let multipart = MultipartForm(body: body, contentType: request.headers[.contentType] ?? "")
            let fields =
                multipart.map { FormFields(request.uri.query ?? "", adding: $0.fields) }
                ?? FormFields(String(decoding: body, as: UTF8.self))
            if let refusal = Self.refusal(request, fields: fields, session: visit.session, isNew: visit.isNewVisitor) {
                response = page.html(renderer.render(refusal, "error"), status: .forbidden)
            } else {
                response = try await handle(page.with(form: fields, uploads: multipart))
            }
        } else {
            response = try await handle(page)
        }
        // A handler that started or ended a session has set its cookies already.
        if !response.headers.contains(.setCookie) {
            if visit.sentUnknownSession {
                response.headers.append(HTTPField(name: .setCookie, value: Self.expiring(Self.sessionCookieName)))
            }
            if visit.isNewVisitor {
                response.headers.append(
                    HTTPField(name: .setCookie, value: Self.setting(Self.visitorCookieName, to: visit.session.id)))
            }
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
        if isNew || !session.accepts(formToken: fields["csrf"]) { return forged }
        if request.headers.contains(where: { $0.name.canonicalName == "sec-fetch-site" && $0.value == "cross-site" }) {
            return forged
        }
        if let origin = request.headers[.origin], let host = request.head.authority {
            if origin != "http://\(host)" { return forged }
        }
        return nil
    }

    /// The value of cookie `name` in a `Cookie` header.
    static func cookie(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == name { return String(pair[1]) }
        }
        return nil
    }

    /// A `Set-Cookie` value for a session cookie (ends with the browser session).
    static func setting(_ name: String, to value: String) -> String {
        "\(name)=\(value); Path=/; HttpOnly; SameSite=Strict"
    }

    /// A `Set-Cookie` value that deletes cookie `name`.
    static func expiring(_ name: String) -> String {
        "\(name)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
    }

    static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "max-age=300"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
