import Account
import Chat
import Dependencies
import Favourites
import Foundation
import LiveEvents
import Moderation
import Networking
import Notifications
import Offers
import Products
import Profile
import Reviews
import Session

/// Seed 002's `registerDependencies()`: the one place that knows the concrete feature modules (and
/// the live-events service) and registers each behind its protocol. Everything else reaches them
/// through ``Dependencies``; `ImportBoundaryTests` holds every other file of the app to that.
enum CompositionRoot {
    /// Registers every module into `dependencies`: products and reviews always (browsing and
    /// reading a seller's reviews need nobody signed in), and, when `session` is given, the modules that act for its user.
    static func registerDependencies(in dependencies: Dependencies, services: AppServices, session: UserSession?) {
        let publicNetwork = services.starter.publicNetwork
        dependencies.register((any ProductsModuleProtocol).self) { _ in
            ProductsModule(network: publicNetwork, session: session)
        }
        dependencies.register((any ReviewsModuleProtocol).self) { _ in
            ReviewsModule(network: publicNetwork, session: session)
        }
        guard let session else { return }
        dependencies.register((any ProfileModuleProtocol).self) { _ in ProfileModule(session: session) }
        // One outbox and one event socket per run, shared by every chat screen and command; the
        // rest of the app reaches them through their protocols.
        dependencies.register(Outbox.self) { _ in
            try services.wiring.outbox(for: session, environment: services.environment)
        }
        dependencies.register((any OutboxControlling).self) { resolver in try resolver.resolve(Outbox.self) }
        dependencies.register((any LiveEventSource).self) { _ in
            LiveEventsConnection(baseURL: services.environment.serverURL, network: session.network)
        }
        dependencies.register((any FavouritesModuleProtocol).self) { _ in FavouritesModule(session: session) }
        dependencies.register((any AccountModuleProtocol).self) { _ in AccountModule(session: session) }
        dependencies.register((any ModerationModuleProtocol).self) { _ in ModerationModule(session: session) }
        dependencies.register((any OffersModuleProtocol).self) { resolver in
            OffersModule(session: session, connection: try resolver.resolve((any LiveEventSource).self))
        }
        dependencies.register((any NotificationsModuleProtocol).self) { resolver in
            NotificationsModule(session: session, events: try resolver.resolve((any LiveEventSource).self))
        }
        dependencies.register((any ChatModuleProtocol).self) { resolver in
            ChatModule(
                session: session, outbox: try resolver.resolve(Outbox.self),
                connection: try resolver.resolve((any LiveEventSource).self))
        }
    }

    /// What is made once per run, before any session: the interceptor that wakes the outbox
    /// whenever a request succeeds, which the performer carries and the outbox attaches to.
    struct Wiring: Sendable {
        private let nudger = OutboxNudger()

        /// The interceptors the run's performer carries.
        var interceptors: [any RequestInterceptor] { [nudger] }

        /// The signed-in user's own outbox, wired to wake whenever any request succeeds.
        func outbox(for session: UserSession, environment: AppEnvironment) throws -> Outbox {
            let file = environment.outboxFile(for: session.userID)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            let outbox = try Outbox(path: file.path, deliverer: BazaarOutboxDeliverer(network: session.network))
            nudger.attach(outbox)
            return outbox
        }
    }

    /// Checks at launch that everything this run needs is registered and can be made: every module
    /// when signed in, the products and reviews modules otherwise.
    static func validate(_ dependencies: Dependencies, signedIn: Bool) throws(DependencyError) {
        if signedIn {
            try dependencies.validate()
        } else {
            try dependencies.container.validate(
                required: [(any ProductsModuleProtocol).self, (any ReviewsModuleProtocol).self])
        }
    }
}
