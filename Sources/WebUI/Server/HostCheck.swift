import HTTPTypes
import Hummingbird
import NIOCore

/// Refuses (403) every request whose host is not one of the app's ``HostNames``, before any
/// session is looked at.
struct HostCheck: RouterMiddleware {
    typealias Context = BasicRequestContext

    let hostNames: HostNames

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard hostNames.accepts(authority: request.head.authority) else {
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            let text =
                "This app does not answer to that host name. Its operator can add one with `bazaar web --host-name`.\n"
            var response = Response(
                status: .forbidden, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
            SecurityHeaders.apply(to: &response.headers)
            return response
        }
        return try await next(request, context)
    }
}
