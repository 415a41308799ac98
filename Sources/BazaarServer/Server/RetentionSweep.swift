import BazaarStorage
import Foundation
import Logging
import ServiceLifecycle

/// Deletes what the ``RetentionPolicy`` no longer keeps, every `interval` (an hour by default),
/// on whichever engine the server runs; with replicas each prunes, which is harmless (a row goes
/// once). A failed prune is logged and tried again next time: retention is never urgent.
struct RetentionSweep: Service {
    let store: any BazaarStore
    let policy: RetentionPolicy
    let interval: Duration
    let now: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    await pruneOnce()
                }
            }
        } catch is CancellationError {
            // The server is stopping: the next start prunes.
        }
    }

    /// One prune, logged.
    func pruneOnce() async {
        do {
            let counts = try await store.prune(policy.cutoffs(at: now()))
            if counts.total > 0 {
                logger.info(
                    "pruned by retention",
                    metadata: [
                        "idempotency_keys": "\(counts.idempotencyKeys)", "refresh_tokens": "\(counts.refreshTokens)",
                        "sessions": "\(counts.sessions)", "notifications": "\(counts.notifications)",
                    ])
            }
        } catch {
            logger.warning("retention prune failed; trying again later", metadata: ["error": "\(error)"])
        }
    }
}
