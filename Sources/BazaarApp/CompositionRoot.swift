import Chat
import Dependencies
import Notifications
import Products
import Profile
import Session

/// Seed 002's `registerDependencies()`: the one place that knows the concrete feature modules and
/// registers each behind its protocol. Everything else reaches features through ``Dependencies``.
enum CompositionRoot {
    /// Registers every module into `dependencies`: products always (browsing needs nobody signed
    /// in), and, when `session` is given, the modules that act for its user.
    static func registerDependencies(in dependencies: Dependencies, services: AppServices, session: UserSession?) {
        let publicNetwork = services.starter.publicNetwork
        dependencies.register((any ProductsModuleProtocol).self) { _ in
            ProductsModule(network: publicNetwork, session: session)
        }
        guard let session else { return }
        dependencies.register((any ProfileModuleProtocol).self) { _ in ProfileModule(session: session) }
        // One outbox and one event socket per run, shared by every chat screen and command.
        dependencies.register(Outbox.self) { _ in try services.outbox(for: session) }
        dependencies.register(LiveEventsConnection.self) { _ in services.liveConnection(for: session) }
        dependencies.register((any NotificationsModuleProtocol).self) { resolver in
            NotificationsModule(session: session, events: try resolver.resolve(LiveEventsConnection.self))
        }
        dependencies.register((any ChatModuleProtocol).self) { resolver in
            ChatModule(
                session: session, outbox: try resolver.resolve(Outbox.self),
                connection: try resolver.resolve(LiveEventsConnection.self))
        }
    }

    /// Checks at launch that everything this run needs is registered and can be made: every module
    /// when signed in, the products module otherwise.
    static func validate(_ dependencies: Dependencies, signedIn: Bool) throws(DependencyError) {
        if signedIn {
            try dependencies.validate()
        } else {
            try dependencies.container.validate(required: [(any ProductsModuleProtocol).self])
        }
    }
}
