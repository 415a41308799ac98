import HTTPTypes
import Hummingbird

/// Adds the headers every API answer carries whatever made it: a route, a cached body or an
/// error. `X-Content-Type-Options: nosniff` keeps a browser from reading a JSON body (which can
/// hold any user's text) as HTML or script.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        // Appended, not set: no route sets it, and the field is made (its value checked) once.
        response.headers.append(noSniff)
        return response
    }
}

/// `X-Content-Type-Options: nosniff` (a generic type cannot hold a stored static).
private let noSniff = HTTPField(name: .xContentTypeOptions, value: "nosniff")
