import BazaarAPI
import Dependencies
import Foundation
import Session

/// One person in the demo, on their own "device": their own config folder (tokens, cache, outbox)
/// and their own ``Dependencies``, wired by the same ``CompositionRoot`` the commands use.
struct DemoUser: Sendable {
    let services: AppServices
    let dependencies: Dependencies
    let session: UserSession

    /// Registers a new account and wires the app for it.
    static func register(
        username: String, displayName: String, password: String, server: URL, folder: URL
    ) async throws -> DemoUser {
        let services = try AppServices(environment: AppEnvironment(serverURL: server, configFolder: folder))
        let session = try await services.starter.register(
            username: username, password: password, displayName: displayName)
        return try DemoUser(services: services, session: session)
    }

    /// Logs in to an existing account and wires the app for it.
    static func login(username: String, password: String, server: URL, folder: URL) async throws -> DemoUser {
        let services = try AppServices(environment: AppEnvironment(serverURL: server, configFolder: folder))
        let session = try await services.starter.login(username: username, password: password)
        return try DemoUser(services: services, session: session)
    }

    private init(services: AppServices, session: UserSession) throws {
        self.services = services
        self.session = session
        dependencies = Dependencies(container: DependencyContainer())
        CompositionRoot.registerDependencies(in: dependencies, services: services, session: session)
        try CompositionRoot.validate(dependencies, signedIn: true)
    }

    /// The signed-in user's id.
    var id: String { session.userID }
}
