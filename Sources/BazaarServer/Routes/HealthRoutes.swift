import BazaarAPI
import BazaarStorage
import Foundation
import Hummingbird

/// `/health` (this server and its database answer) and `/metrics` (Prometheus text).
struct HealthRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.health) { _, _ in
            // 503 with the reason (through ErrorMiddleware) when the database cannot be reached.
            try await deps.store.checkHealth()
            var headers = HTTPFields()
            headers[.cacheControl] = "no-store"
            return try JSONResponse.make(HealthStatus(status: "ok"), headers: headers)
        }
        router.on(APIRoutes.metrics) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(
                status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: deps.metrics.render())))
        }
    }
}
