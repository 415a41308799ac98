import BazaarAPI
import Networking
import Session

/// Checks, after each malformed-input case, that the server still serves: the process is alive,
/// `GET /health` answers 200, and a normal authenticated request through the kit succeeds.
struct HealthProbe: Sendable {
    /// The server's owner, to see whether the process is alive.
    let supervisor: ServerSupervisor
    /// A signed-in user's controller (no retries, a short timeout).
    let network: AuthenticatedNetworkController
    /// The server's port.
    let port: Int

    /// Why the server is not serving normally, or `nil` when it is.
    func problem() async -> String? {
        guard await supervisor.isRunning else {
            return "the server exited: \(await supervisor.logTail())"
        }
        do {
            let health = try await RawProbe.request(
                "GET \(APIRoutes.health.template) HTTP/1.1", port: port, timeoutSeconds: 5)
            guard health.statuses.first == 200 else { return "GET /health: \(health.summary)" }
        } catch {
            return "GET /health: \(error)"
        }
        do {
            _ = try await network.request(BazaarEndpoints.me)
        } catch {
            return "GET /v1/users/me: \(error)"
        }
        return nil
    }
}
