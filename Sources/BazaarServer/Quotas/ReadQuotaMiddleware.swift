import BazaarAPI
import BazaarDomain
import Hummingbird

/// Counts every read (`GET`, except `/health`, its probes and `/metrics`, which load balancers and scrapers
/// poll) against its client address's quota; over it, the read is answered `429` with `Retry-After`.
/// The router has it only when reads have a quota (``QuotaLimiter/limits(_:)``), so without one a
/// read neither works out its address nor passes through here.
struct ReadQuotaMiddleware: RouterMiddleware {
    typealias Context = BazaarRequestContext

    let deps: ServerDependencies
    /// What load balancers, orchestrators and scrapers ask for, never counted.
    static let probes: Set<String> = [
        APIRoutes.health.template, APIRoutes.healthLive.template, APIRoutes.healthReady.template,
        APIRoutes.metrics.template,
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if request.method == .get, !Self.probes.contains(request.uri.path),
            let address = deps.clientAddress(request, peer: context.clientAddress)
        {
            try deps.quotas.charge(.read, by: address)
        }
        return try await next(request, context)
    }
}
