import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session
import WebUI

/// One browser's account in `bazaar web`: a client stack of its own (session, tokens, cache and
/// outbox under its own folder), wired by the same ``CompositionRoot`` as the terminal commands.
actor WebAccount: BrowserAccount {
    private let services: AppServices
    private var session: UserSession?
    private var wired: Dependencies

    /// Opens the account whose files live in `environment`'s config folder, resuming its session.
    init(environment: AppEnvironment) async throws {
        services = try AppServices(environment: environment)
        wired = Dependencies(container: DependencyContainer())
        let restored = try await services.restoreSession()
        try adopt(restored)
    }

    func dependencies() -> Dependencies { wired }

    func signedInUser() async -> User? {
        guard let session else { return nil }
        return await session.user.user
    }

    func signIn(username: String, password: String) async -> ScreenError? {
        let started: UserSession
        do throws(NetworkError) {
            started = try await services.starter.login(username: username, password: password)
        } catch  where error.statusCode == 401 {
            return ScreenError(kind: .signedOut, message: "Wrong username or password.")
        } catch {
            return ScreenError(error)
        }
        return await adopting(started)
    }

    func register(username: String, displayName: String, password: String) async -> ScreenError? {
        let started: UserSession
        do throws(NetworkError) {
            started = try await services.starter.register(
                username: username, password: password, displayName: displayName)
        } catch {
            return ScreenError(error)
        }
        return await adopting(started)
    }

    func signOut() async -> ScreenError? {
        guard let session else { return nil }
        await stopBackgroundWork()
        _ = await session.logout()
        services.forgetUser()
        do {
            try adopt(nil)
            return nil
        } catch {
            // Nobody may stay signed in on modules wired for the last user: keep an empty container,
            // so every page says what failed instead of acting for someone who left.
            self.session = nil
            wired = Dependencies(container: DependencyContainer())
            return ScreenError(
                kind: .other, message: "You are signed out, but the app could not be set up again: \(error)")
        }
    }

    /// Stops the outbox worker and the live socket of the signed-in user.
    func stopBackgroundWork() async {
        guard session != nil else { return }
        await (try? wired.resolve((any OutboxControlling).self))?.stop()
        await (try? wired.resolve((any LiveEventSource).self))?.stop()
    }

    private func adopting(_ session: UserSession) async -> ScreenError? {
        await stopBackgroundWork()
        do {
            try adopt(session)
        } catch {
            return ScreenError(kind: .other, message: "The app could not be set up for you: \(error)")
        }
        services.remember(await session.user.user)
        return nil
    }

    /// Registers fresh modules for `session` (a new container: nothing of the last user stays) and
    /// starts its outbox.
    private func adopt(_ session: UserSession?) throws {
        let dependencies = Dependencies(container: DependencyContainer())
        CompositionRoot.registerDependencies(in: dependencies, services: services, session: session)
        try CompositionRoot.validate(dependencies, signedIn: session != nil)
        self.session = session
        wired = dependencies
        if session != nil {
            let outbox = try dependencies.resolve((any OutboxControlling).self)
            Task { await outbox.start() }
        }
    }
}

/// Makes one ``WebAccount`` per browser, each under `root/browsers/ID`.
struct WebAccounts: BrowserAccountFactory {
    let serverURL: URL
    let root: URL

    func account(forBrowser id: String) async throws -> any BrowserAccount {
        let folder = root.appendingPathComponent("browsers", isDirectory: true).appendingPathComponent(
            id, isDirectory: true)
        return try await WebAccount(environment: AppEnvironment(serverURL: serverURL, configFolder: folder))
    }
}
