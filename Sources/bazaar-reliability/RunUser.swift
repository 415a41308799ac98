import Networking
import Session

/// The users a run registers, each signed in through the kit's ``SessionStarter``.
enum RunUser {
    /// The password of every user a run registers.
    static let password = "reliability-run"

    /// Registers `username` through the kit and returns the signed-in session (tokens in memory).
    static func register(_ username: String, client: APIClient) async throws -> UserSession {
        let starter = SessionStarter(client: client, tokenStore: InMemoryTokenStore())
        return try await starter.register(username: username, password: password, displayName: username)
    }
}
