import BazaarAPI
import Dependencies
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Networking

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
    /// The posted multipart body, when the form had file inputs.
    var uploads: MultipartForm?

    /// The same page with the posted form (and its files).
    func with(form: FormFields, uploads: MultipartForm?) -> WebPage {
        var copy = self
        copy.form = form
        copy.uploads = uploads
        return copy
    }

    /// The images chosen in the file input `field`, in order, or the sentence saying which of
    /// them is not a JPEG, PNG or WebP.
    func photos(_ field: String) -> Result<[PhotoToSend], ScreenError> {
        var photos: [PhotoToSend] = []
        for (index, bytes) in (uploads?.files(named: field) ?? []).enumerated() {
            guard let photo = PhotoToSend(sniffing: bytes) else {
                return .failure(
                    ScreenError(
                        kind: .invalidInput, message: "File \(index + 1) is not a JPEG, PNG or WebP image."))
            }
            photos.append(photo)
        }
        return .success(photos)
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

    /// A chat photo's bytes, for this browser only: never stored by a shared cache, kept an
    /// hour by the browser (a photo's URL names one upload, which never changes).
    func image(_ bytes: Data) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = (Networking.MediaType.image(sniffing: bytes) ?? .octetStream).essence
        headers[.cacheControl] = "private, max-age=3600"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
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
