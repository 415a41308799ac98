import Logging
import ServiceLifecycle

/// The first service a graceful shutdown reaches (it runs last in the group): it marks the
/// server draining, so `/health/ready` turns 503 at once, then keeps the server serving for
/// ``delay`` (for load balancers to see the probe and stop sending), then lets the HTTP server
/// stop accepting and finish what is in flight.
struct DrainGate: Service {
    let readiness: ServerReadiness
    let delay: Duration
    let clock: any Clock<Duration>
    let logger: Logger

    func run() async throws {
        // Returns when a graceful shutdown begins (or throws when the group is cancelled).
        try await gracefulShutdown()
        readiness.beginDraining()
        logger.notice("draining: /health/ready answers 503", metadata: ["drain_delay": "\(delay)"])
        if delay > .zero { try? await clock.sleep(for: delay) }
    }
}
