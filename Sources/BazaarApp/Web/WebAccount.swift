import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session
import WebUI

/// One signed-in browser's account in `bazaar web`: a client stack of its own (session, tokens,
/// cache and outbox in a folder of its own), wired by the same ``CompositionRoot`` as the terminal
/// commands. It is made for one sign-in and removed, folder and all, when it ends.
actor WebAccount: BrowserAccount {
    private let services: AppServices
    private let folders: WebFolders
    private var session: UserSession?
    private var wired: Dependencies

    /// An account, not signed in, whose files live in `folder` (created if needed).
    init(folder: URL, serverURL: URL, folders: WebFolders) throws {
        services = try AppServices(environment: AppEnvironment(serverURL: serverURL, configFolder: folder))
        self.folders = folders
        wired = Dependencies(container: DependencyContainer())
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

    /// Resumes the session stored in this account's folder by an earlier run, when the server can
    /// say whether it still holds. Returns `false` when the server cannot be reached (the folder
    /// stays as it is, to be tried again).
    func resumeStored() async -> Bool {
        let stored: UserSession?
        do throws(NetworkError) {
            stored = try await services.starter.restore()
        } catch {
            // Refused (expired or revoked): nothing left to resume or revoke.
            return !error.isUnreachable
        }
        guard let stored else { return true }
        do {
            try adopt(stored)
        } catch {
            await stored.logout()
        }
        return true
    }

    @discardableResult
    func end() async -> ScreenError? {
        var problem: ScreenError?
        // Without a session (never signed in, or refused by the server) nobody can say whether
        // its folder holds undelivered messages: keep any outbox it has.
        var keepOutboxes = session == nil
        if let session {
            let outbox = try? wired.resolve((any OutboxControlling).self)
            await stopBackgroundWork()
            // Deliver what is queued while the session can still send it.
            _ = await outbox?.flush()
            let waiting = (try? await outbox?.entries())?.filter { $0.state == .queued || $0.state == .sending }
            let outcome = await session.logout()
            if !outcome.revokedOnServer {
                problem = ScreenError(
                    kind: .offline,
                    message: "The server could not be reached to end the session; it was removed here.")
            }
            keepOutboxes = waiting?.isEmpty != true
            if let waiting, !waiting.isEmpty {
                problem = ScreenError(
                    kind: .other,
                    message:
                        "\(waiting.count) message(s) could not be sent yet; they will be sent when you sign in again.")
            }
            self.session = nil
            wired = Dependencies(container: DependencyContainer())
        }
        do {
            try folders.retire(services.environment.configFolder, parkingOutboxes: keepOutboxes)
        } catch {
            problem = problem ?? ScreenError(kind: .other, message: "Your files here could not be removed: \(error)")
        }
        return problem
    }

    /// Stops the outbox worker and the live socket of the signed-in user.
    private func stopBackgroundWork() async {
        guard session != nil else { return }
        await (try? wired.resolve((any OutboxControlling).self))?.stop()
        await (try? wired.resolve((any LiveEventSource).self))?.stop()
    }

    private func adopting(_ session: UserSession) async -> ScreenError? {
        do {
            try adopt(session)
        } catch {
            await session.logout()
            return ScreenError(kind: .other, message: "The app could not be set up for you: \(error)")
        }
        services.remember(await session.user.user)
        return nil
    }

    /// Registers the modules for `session` (taking back the user's parked outbox, if any) and
    /// starts its outbox.
    private func adopt(_ session: UserSession) throws {
        try folders.unpark(userID: session.userID, into: services.environment)
        let dependencies = Dependencies(container: DependencyContainer())
        CompositionRoot.registerDependencies(in: dependencies, services: services, session: session)
        try CompositionRoot.validate(dependencies, signedIn: true)
        self.session = session
        wired = dependencies
        let outbox = try dependencies.resolve((any OutboxControlling).self)
        Task { await outbox.start() }
    }
}
