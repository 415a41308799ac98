import Foundation
import ServiceLifecycle

/// Closes live-event sockets whose access token has expired (``EventHub/closeExpired(now:)``),
/// looking every `interval`: one timer for every socket of the replica, not one per socket, and
/// a look with nothing due costs one comparison.
///
/// Expiry is read from the server's configured clock, so a test that moves that clock sees its
/// sockets closed within one interval, without waiting for a token to age.
struct SocketExpirySweep: Service {
    let hub: EventHub
    let interval: Duration
    let now: @Sendable () -> Date

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    await hub.closeExpired(now: now())
                }
            }
        } catch is CancellationError {
            // The server is stopping: a sweep has nothing to finish.
        }
    }
}
