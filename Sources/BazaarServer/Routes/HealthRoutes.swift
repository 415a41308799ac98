import BazaarAPI
import BazaarStorage
import Foundation
import Hummingbird

/// `/health` (this server and its database answer), the probes `/health/live` (the process
/// answers: for a liveness probe, which must not restart a replica because its database blinked)
/// and `/health/ready` (database reachable and not draining: for a readiness probe, which takes
/// the replica out of the load balancer's pool meanwhile), and, unless it has a listener of its
/// own (``MetricsRoutes``), `/metrics` (Prometheus text).
struct HealthRoutes: RouteGroup {
    let deps: ServerDependencies
    /// Whether `/metrics` is served here, beside the API.
    var servesMetrics = true

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.health) { _, _ in
            // 503 with the reason (through ErrorMiddleware) when the database cannot be reached.
            try await deps.store.checkHealth()
            return try Self.answer("ok")
        }
        router.on(APIRoutes.healthLive) { _, _ in
            try Self.answer("ok")
        }
        router.on(APIRoutes.healthReady) { _, _ in
            guard !deps.readiness.isDraining else {
                throw APIError.unavailable("the server is shutting down; send this request to another replica")
            }
            // Migrations ran before the server listened; the database must answer now.
            try await deps.store.checkHealth()
            return try Self.answer("ok")
        }
        if servesMetrics { MetricsRoutes(metrics: deps.metrics).register(on: router) }
    }

    /// `{"status": status}`, never cached.
    static func answer(_ status: String) throws -> Response {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        return try JSONResponse.make(HealthStatus(status: status), headers: headers)
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
