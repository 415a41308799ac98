import BazaarAPI
import Chat
import Dependencies
import Foundation
import Session
import TestSupport
import Testing

@testable import BazaarApp

/// The composition root wires every module behind its protocol, and launch-time validation says
/// what is missing.
@Suite("CompositionRoot")
struct CompositionRootTests {
    @Test("signed in, every module registers, validates and resolves; chat shares one outbox")
    func signedInWiring() async throws {
        try await BazaarTestHarness.withServer { server in
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let services = try AppServices(environment: AppEnvironment(serverURL: server.baseURL, configFolder: folder))
            let session = try await services.starter.register(
                username: "wren", password: "wren-password", displayName: "Wren")
            let dependencies = Dependencies(container: DependencyContainer())
            CompositionRoot.registerDependencies(in: dependencies, services: services, session: session)
            try CompositionRoot.validate(dependencies, signedIn: true)

            let profile = try await dependencies.profileModule.profileScreen().logic.send(.load)
            guard case .presenting(let content) = profile else {
                Issue.record("profile did not load: \(profile)")
                return
            }
            #expect(content.user.username == "wren")
            _ = try dependencies.productsModule
            _ = try dependencies.notificationsModule
            _ = try dependencies.chatModule
            let first = try dependencies.resolve(Outbox.self)
            let second = try dependencies.resolve(Outbox.self)
            #expect(first === second, "one outbox per run, shared by every chat screen")
            let outboxFile = folder.appendingPathComponent("users/\(session.userID)/outbox.sqlite")
            #expect(FileManager.default.fileExists(atPath: outboxFile.path), "each user has their own outbox")
        }
    }

    @Test("signed out, only products is wired; validation passes and the others are reported missing by name")
    func signedOutWiring() async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = RefusedAddress.url
        let services = try AppServices(environment: AppEnvironment(serverURL: url, configFolder: folder))
        let dependencies = Dependencies(container: DependencyContainer())
        CompositionRoot.registerDependencies(in: dependencies, services: services, session: nil)
        try CompositionRoot.validate(dependencies, signedIn: false)
        _ = try dependencies.productsModule
        #expect(throws: DependencyError.missing(type: "Dependencies.ChatModuleProtocol", path: [])) {
            _ = try dependencies.chatModule
        }
        #expect {
            try CompositionRoot.validate(dependencies, signedIn: true)
        } throws: { error in
            guard case DependencyError.validationFailed(let problems) = error else { return false }
            // Profile, chat, notifications, favourites, offers, account and moderation need someone signed in.
            return problems.count == 7
        }
    }
}
