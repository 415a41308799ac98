import Account
import BazaarAPI
import Chat
import Dependencies
import Favourites
import Foundation
import Moderation
import Notifications
import Offers
import Products
import Profile
import Reviews
import Session
import TestSupport
import Testing

@Suite("The feature modules behind Dependencies", .timeLimit(.minutes(2)))
struct ModuleRegistrationTests {
    @Test("with every module registered, validate passes and each accessor hands out a working module")
    func registerValidateResolve() async throws {
        try await SessionFixture.with { fixture in
            let starter = fixture.starter()
            let session = try await starter.register(username: "wes", password: "password123", displayName: "Wes")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let outbox = try Outbox(
                path: folder.appendingPathComponent("outbox.sqlite").path,
                deliverer: BazaarOutboxDeliverer(network: session.network))

            let dependencies = Dependencies()
            #expect(throws: DependencyError.self) { try dependencies.validate() }
            dependencies.register((any ProfileModuleProtocol).self) { _ in ProfileModule(session: session) }
            dependencies.register((any ProductsModuleProtocol).self) { _ in
                ProductsModule(network: starter.publicNetwork, session: session)
            }
            dependencies.register((any ChatModuleProtocol).self) { _ in ChatModule(session: session, outbox: outbox) }
            dependencies.register((any NotificationsModuleProtocol).self) { _ in NotificationsModule(session: session) }
            dependencies.register((any FavouritesModuleProtocol).self) { _ in FavouritesModule(session: session) }
            #expect(throws: DependencyError.self) { try dependencies.validate() }
            dependencies.register((any OffersModuleProtocol).self) { _ in OffersModule(session: session) }
            #expect(throws: DependencyError.self) { try dependencies.validate() }
            dependencies.register((any ReviewsModuleProtocol).self) { _ in
                ReviewsModule(network: starter.publicNetwork, session: session)
            }
            #expect(throws: DependencyError.self) { try dependencies.validate() }
            dependencies.register((any AccountModuleProtocol).self) { _ in AccountModule(session: session) }
            #expect(throws: DependencyError.self) { try dependencies.validate() }
            dependencies.register((any ModerationModuleProtocol).self) { _ in ModerationModule(session: session) }
            try dependencies.validate()

            let profile = try await dependencies.profileModule.profileScreen().logic.send(.load)
            guard case .presenting(let content) = profile else {
                Issue.record("expected the profile, got \(profile)")
                return
            }
            #expect(content.user.username == "wes")
            let products = try await dependencies.productsModule.productListScreen().logic.send(.load(query: nil))
            #expect(products.content?.products.isEmpty == true)
            let conversations = try await dependencies.chatModule.conversationsScreen().logic.send(.load)
            #expect(conversations.content?.conversations.isEmpty == true)
            let notifications = try await dependencies.notificationsModule.notificationsScreen().logic.send(.load)
            #expect(notifications.content?.unreadCount == 0)
            let saved = try await dependencies.favouritesModule.favouritesScreen().logic.send(.load)
            #expect(saved.content?.products.isEmpty == true)
            let account = try await dependencies.accountModule.accountScreen().logic.send(.load)
            #expect(account.content?.sessions.count == 1)
            let queue = try await dependencies.moderationModule.queueScreen(status: .open).logic.send(.load)
            #expect(queue.error?.kind == .notFound, "Wes is no moderator")
        }
    }

    @Test("a missing module is named by the accessor's typed error, not a crash")
    func missingModuleIsNamed() {
        let dependencies = Dependencies()
        #expect(throws: DependencyError.missing(type: "Dependencies.ChatModuleProtocol", path: [])) {
            _ = try dependencies.chatModule
        }
    }
}
