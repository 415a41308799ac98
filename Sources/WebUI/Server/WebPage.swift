import BazaarAPI
import Dependencies
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// One request's view of the browser: who is signed in, their modules, the form they posted, and
/// how to answer with a page.
struct WebPage: Sendable {
    let session: BrowserSession
    /// The signed-in browser's account; `nil` for a visitor.
    let account: (any BrowserAccount)?
    let renderer: PageRenderer
    let serverURL: URL
    let user: User?
    let dependencies: Dependencies
    var form = FormFields("")
    /// The posted body as it came (for a file upload).
    var body = Data()

    /// The same page with the posted form and body.
    func with(form: FormFields, body: Data) -> WebPage {
        var copy = self
        copy.form = form
        copy.body = body
        return copy
    }

    /// The navigation for this page.
    func nav(live: String? = nil, notice: String? = nil) -> NavigationView {
        NavigationView(user: user, csrf: session.csrfToken, live: live, notice: notice)
    }

    /// An HTML answer.
    func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// `view` through `template`.
    func render(_ view: Any, _ template: String, status: HTTPResponse.Status = .ok) -> Response {
        html(renderer.render(view, template), status: status)
    }

    /// The id of this browser's signed-in session, `nil` for a visitor.
    var signedInSessionID: String? { account == nil ? nil : session.id }

    /// A redirect after a post (303, so the browser follows with a GET).
    func redirect(to path: String) -> Response {
        Response.redirect(to: path, type: .normal)
    }

    /// A failed screen as a page, with the status its kind calls for.
    func failed(_ error: ScreenError, heading: String = "Something went wrong") -> Response {
        if error.kind == .signedOut { return redirect(to: "/signin") }
        let status: HTTPResponse.Status =
            switch error.kind {
            case .notFound: .notFound
            case .invalidInput: .unprocessableContent
            case .throttled: .tooManyRequests
            case .offline: .serviceUnavailable
            case .signedOut: .unauthorized
            case .other: .internalServerError
            }
        let view = ErrorView(
            title: heading, nav: nav(), heading: heading, message: error.message, suggestion: error.suggestion)
        return render(view, "error", status: status)
    }

    /// The page for a screen's settled state: its content drawn by `view` through `template`, or
    /// the failure (headed `heading`). A screen still loading after its action is a failure too.
    func show<Content>(
        _ state: ScreenState<Content>, template: String, heading: String = "Something went wrong",
        view: (Content) -> Any
    ) -> Response {
        switch state {
        case .presenting(let content): render(view(content), template)
        case .failed(let error): failed(error, heading: heading)
        case .loading:
            failed(ScreenError(kind: .other, message: "The page did not finish loading. Try again."), heading: heading)
        }
    }

    /// The page for signed-in people only: sends everyone else to sign in.
    func signedIn(_ handle: (User) async throws -> Response) async rethrows -> Response {
        guard let user else { return redirect(to: "/signin") }
        return try await handle(user)
    }
}
