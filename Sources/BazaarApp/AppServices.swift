import BazaarAPI
import Foundation
import Networking
import NetworkingAsyncHTTPClient
import Session
import Tracing

/// The client stack for one run of the app against one server and one config folder: the
/// performer and its cache, the session starter, and per-user outboxes and live connections.
struct AppServices: Sendable {
    let environment: AppEnvironment
    let starter: SessionStarter
    /// What the composition root wires once per run (the outbox's nudger on the performer).
    let wiring: CompositionRoot.Wiring
    /// Every session started in this run, to save tokens a refresh could not write before exit.
    let sessions: StartedSessions

    /// Builds the client stack for `environment`, creating its config folder (0700) if needed;
    /// requests are traced with `tracer` when one is given.
    init(environment: AppEnvironment, tracer: (any Tracer)? = nil) throws {
        self.environment = environment
        do {
            try FileManager.default.createDirectory(
                at: environment.configFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw AppError(
                .refused,
                "cannot create the config folder \(environment.configFolder.path): \(error.localizedDescription)")
        }
        let wiring = CompositionRoot.Wiring()
        self.wiring = wiring
        let cache = try HTTPCache(folder: environment.cacheFolder)
        var performer = NetworkRequestPerformer(
            transport: AsyncHTTPClientTransport(), interceptors: wiring.interceptors, cache: cache)
        performer.timeout = .seconds(15)
        performer.tracer = tracer
        let knownUser = environment.knownUserFile
        let sessions = StartedSessions()
        self.sessions = sessions
        starter = SessionStarter(
            client: .bazaar(baseURL: environment.serverURL, performer: performer),
            tokenStore: FileTokenStore(url: environment.tokenFile),
            onSessionEnded: { _ in try? FileManager.default.removeItem(at: knownUser) },
            onSessionStarted: { await sessions.add($0) })
    }

    /// The stored session (offline too, with the user last seen here), or `nil` when signed out.
    func restoreSession() async throws -> UserSession? {
        do {
            return try await starter.restore(lastKnownUser: lastKnownUser())
        } catch {
            if error.isSessionExpired { return nil }
            throw AppError(error)
        }
    }

    /// Saves tokens a refresh left unsaved; a store that still refuses them is an ``AppError`` (exit
    /// 74) saying the next run will ask to sign in again.
    func saveUnsavedTokens() async throws(AppError) {
        for session in await sessions.all {
            do throws(TokenSaveFailure) {
                try await session.saveUnsavedTokens()
            } catch {
                throw AppError(.storage, error.description)
            }
        }
    }

    /// Remembers who is signed in on this device (no secrets: the public profile).
    func remember(_ user: User) {
        guard let data = try? BazaarJSON.makeEncoder().encode(user) else { return }
        try? data.write(to: environment.knownUserFile, options: .atomic)
    }

    /// Forgets the signed-in user (after a logout).
    func forgetUser() {
        try? FileManager.default.removeItem(at: environment.knownUserFile)
    }

    private func lastKnownUser() -> User? {
        guard let data = try? Data(contentsOf: environment.knownUserFile) else { return nil }
        return try? BazaarJSON.makeDecoder().decode(User.self, from: data)
    }
}

/// The sessions started during one run of the app, the newest per user (a long `bazaar web` run
/// signs people in and out without keeping every old session).
actor StartedSessions {
    private var byUser: [String: UserSession] = [:]

    /// The sessions, one per user.
    var all: [UserSession] { Array(byUser.values) }

    /// Adds `session`, replacing an earlier one of the same user.
    func add(_ session: UserSession) {
        byUser[session.userID] = session
    }
}
