import BazaarAPI
import BazaarStorage
import Foundation
import Hummingbird

/// `/health` (this server and its database answer) and, unless it has a listener of its own
/// (``MetricsRoutes``), `/metrics` (Prometheus text).
struct HealthRoutes: RouteGroup {
    let deps: ServerDependencies
    /// Whether `/metrics` is served here, beside the API.
    var servesMetrics = true

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.health) { _, _ in
            // 503 with the reason (through ErrorMiddleware) when the database cannot be reached.
            try await deps.store.checkHealth()
            var headers = HTTPFields()
            headers[.cacheControl] = "no-store"
            return try JSONResponse.make(HealthStatus(status: "ok"), headers: headers)
        }
        if servesMetrics { MetricsRoutes(metrics: deps.metrics).register(on: router) }
    }
}

/// `/metrics` (Prometheus text), beside the API or on a listener of its own.
struct MetricsRoutes: RouteGroup {
    let metrics: ServerMetrics

    func register(on router: Router<BazaarRequestContext>) {
        let metrics = self.metrics
        router.on(APIRoutes.metrics) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(
                status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: metrics.render())))
        }
    }
}
