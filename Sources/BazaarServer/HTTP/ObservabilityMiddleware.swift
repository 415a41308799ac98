import BazaarStorage
import Foundation
import Hummingbird
import Logging

/// Measures and logs every request: count and latency by route template, method and status.
///
/// Logs name the route template (`/v1/users/{id}`), never the raw path, query string, headers
/// or body, so passwords and tokens (including `?token=` on `/v1/events`) never reach the log.
struct ObservabilityMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        metrics.recordInFlight(1)
        defer { metrics.recordInFlight(-1) }
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            // ErrorMiddleware sits inside this one, so only errors it rethrew on purpose arrive here.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            finish(request: request, context: context, status: status, start: start)
            throw error
        }
        finish(request: request, context: context, status: response.status.code, start: start)
        return response
    }

    private func finish(request: Request, context: Context, status: Int, start: ContinuousClock.Instant) {
        let duration = ContinuousClock.now - start
        let route = Self.template(context.endpointPath)
        metrics.recordRequest(route: route, method: request.method.rawValue, status: status, duration: duration)
        context.logger.info(
            "request",
            metadata: [
                "http.method": "\(request.method.rawValue)", "http.route": "\(route)", "http.status": "\(status)",
                "duration_ms": "\(Int(duration.timeInterval * 1000))",
            ])
    }

    /// Hummingbird's endpoint path (`/v1/users/{id}` style already) or `unmatched`.
    static func template(_ endpointPath: String?) -> String {
        guard let endpointPath, endpointPath != "NotFound" else { return "unmatched" }
        return endpointPath
    }
}
