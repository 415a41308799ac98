import Chat
import Foundation
import Networking
import Session

/// The app's wiring for one run: the client stack, the session starter, and (once signed in) the
/// outbox. The only place besides ``CompositionRoot`` that knows concrete modules.
struct AppServices: Sendable {
    let environment: AppEnvironment
    let starter: SessionStarter
    let nudger: OutboxNudger

    /// Builds the client stack for `environment`.
    init(environment: AppEnvironment) throws {
        self.environment = environment
        try FileManager.default.createDirectory(
            at: environment.configFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        nudger = OutboxNudger()
        let cache = try HTTPCache(folder: environment.cacheFolder)
        var performer = NetworkRequestPerformer(interceptors: [nudger], cache: cache)
        performer.timeout = .seconds(15)
        starter = SessionStarter(
            client: .bazaar(baseURL: environment.serverURL, performer: performer),
            tokenStore: FileTokenStore(url: environment.tokenFile))
    }

    /// The stored session, or a typed failure saying to log in.
    func session() async throws -> UserSession {
        do {
            guard let session = try await starter.restore() else { throw AppError.signedOut }
            return session
        } catch let error as NetworkError {
            throw AppError(error)
        }
    }

    /// The signed-in user's outbox, wired to wake when any request succeeds.
    func outbox(for session: UserSession) throws -> Outbox {
        let outbox = try Outbox(path: environment.outboxFile.path, deliverer: BazaarOutboxDeliverer(network: session.network))
        nudger.attach(outbox)
        return outbox
    }
}
