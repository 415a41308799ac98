import BazaarAPI
import Dependencies
import Foundation
import Networking
import Profile
import Session
import TestSupport
import Testing

@Suite("ProfileLogicController against the real bazaar-server", .timeLimit(.minutes(2)))
struct ProfileLogicControllerTests {
    /// A real PNG of a few hundred KB, so an upload reports progress along the way.
    static let png = TestImages.png(width: 400, height: 300, grain: 40)

    static func screen(_ session: UserSession) -> ProfileScreen {
        ProfileModule(session: session).profileScreen()
    }

    @Test("load shows the cached user first, then the server's")
    func loadCachedThenFresh() async throws {
        try await SessionFixture.with { fixture in
            let session = try await fixture.starter().register(
                username: "ada", password: "password123", displayName: "Ada")
            // Ada renames herself on another device: this one's cached user is stale.
            let otherDevice = try await fixture.starter().login(username: "ada", password: "password123")
            try await otherDevice.user.rename(to: "Ada L.")
            let (final, seen) = await StateRecorder.record(Self.screen(session).logic, .load)
            #expect(seen.count == 3, "loading, the cached user, the fresh one: \(seen)")
            #expect(seen.first == .loading)
            #expect(
                seen.dropFirst().first
                    == .presenting(ProfileContent(user: try #require(seen[1].user), isRefreshing: true)))
            #expect(seen.dropFirst().first?.user?.displayName == "Ada")
            #expect(final.user?.displayName == "Ada L.")
            #expect(seen.last == final)
        }
    }

    @Test("renaming presents the new name; an empty name fails with the server's reason")
    func rename() async throws {
        try await SessionFixture.with { fixture in
            let session = try await fixture.starter().register(
                username: "bea", password: "password123", displayName: "Bea")
            let logic = Self.screen(session).logic
            let renamed = await logic.send(.changeDisplayName("Beatrice"))
            #expect(renamed.user?.displayName == "Beatrice")
            #expect(await session.user.user.displayName == "Beatrice")
            let refused = await logic.send(.changeDisplayName(""))
            guard case .failed(let error) = refused else {
                Issue.record("expected a failure, got \(refused)")
                return
            }
            #expect(error.kind == .invalidInput)
        }
    }

    @Test("a photo upload reports progress up to 100% and presents the user with a photo URL")
    func photoUpload() async throws {
        try await SessionFixture.with { fixture in
            let session = try await fixture.starter().register(
                username: "cal", password: "password123", displayName: "Cal")
            let (state, seen) = await StateRecorder.record(Self.screen(session).logic, .changePhoto(Self.png, .png))
            let progress = seen.compactMap { $0.content?.uploadProgress }
            #expect(state.user?.photoURL != nil)
            #expect(state.content?.uploadProgress == nil, "the final state has no upload under way")
            #expect(progress.first == 0)
            #expect(progress.last == 1)
            #expect(progress.count > 2)
            #expect(progress == progress.sorted(), "progress only grows")
            let refused = await Self.screen(session).logic.send(.changePhoto(Data("not an image".utf8), .png))
            #expect(refused.error?.kind == .invalidInput)
        }
    }

    @Test("logout moves to signedOut; a later load fails as signed out")
    func logout() async throws {
        try await SessionFixture.with { fixture in
            let session = try await fixture.starter().register(
                username: "dot", password: "password123", displayName: "Dot")
            let logic = Self.screen(session).logic
            #expect(await logic.send(.logout) == .signedOut)
            #expect(await logic.send(.load) == .signedOut)
        }
    }

    @Test("with the server down, load keeps the cached user visible and then fails as offline")
    func serverDown() async throws {
        let session = try await SessionFixture.with { fixture in
            try await fixture.starter().register(username: "eve", password: "password123", displayName: "Eve")
        }
        let (state, seen) = await StateRecorder.record(Self.screen(session).logic, .load)
        #expect(seen.dropFirst().first?.user?.username == "eve")
        #expect(state.error?.kind == .offline)
    }
}

extension ProfileState {
    var user: User? {
        if case .presenting(let content) = self { content.user } else { nil }
    }

    var error: ScreenError? {
        if case .failed(let error) = self { error } else { nil }
    }
}
