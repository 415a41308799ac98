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
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
