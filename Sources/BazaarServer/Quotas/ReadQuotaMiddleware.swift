import BazaarAPI
import BazaarDomain
import Hummingbird

/// Counts every read (`GET`, except `/health` and `/metrics`, which load balancers and scrapers
/// poll) against its client address's quota; over it, the read is answered `429` with `Retry-After`.
struct ReadQuotaMiddleware: RouterMiddleware {
    typealias Context = BazaarRequestContext

    let deps: ServerDependencies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if request.method == .get, request.uri.path != APIRoutes.health.template,
            request.uri.path != APIRoutes.metrics.template,
            let address = deps.clientAddress(request, peer: context.clientAddress)
        {
            try deps.quotas.charge(.read, by: address)
        }
        return try await next(request, context)
    }
}
