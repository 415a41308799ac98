import Account
import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session
import TestSupport
import Testing

@Suite("AccountLogicController against the real bazaar-server", .timeLimit(.minutes(2)))
struct AccountLogicTests {
    @Test("the account lists its sessions and blocks; a block and an unblock are confirmed in words")
    func sessionsAndBlocks() async throws {
        try await SessionFixture.with { fixture in
            let ada = try await fixture.starter().register(username: "ada", password: "password123", displayName: "Ada")
            _ = try await fixture.raw.login("ada")
            // Bob as others see him: no role.
            var bob = try await fixture.raw.register("bob", displayName: "Bob").user
            bob.role = nil
            let logic = AccountLogicController(session: ada)
            let loaded = try #require(await logic.send(.load).content)
            #expect(loaded.sessions.count == 2)
            #expect(loaded.sessions.filter(\.current).count == 1)
            #expect(loaded.blocked.isEmpty)

            let blocked = try #require(await logic.send(.block(userID: bob.id)).content)
            #expect(blocked.notice == .blocked(bob))
            #expect(blocked.notice?.sentence == "You blocked Bob.")
            #expect(blocked.blocked == [bob])
            let unblocked = try #require(await logic.send(.unblock(userID: bob.id)).content)
            #expect(unblocked.notice == .unblocked(bob) && unblocked.blocked.isEmpty)

            let ended = try #require(await logic.send(.endOtherSessions).content)
            #expect(ended.notice == .otherSessionsEnded)
            #expect(ended.sessions.count == 1 && ended.sessions.first?.current == true)
        }
    }

    @Test("a wrong or too short password is shown beside its field; a right one changes it")
    func passwordChange() async throws {
        try await SessionFixture.with { fixture in
            let ada = try await fixture.starter().register(username: "ada", password: "password123", displayName: "Ada")
            let logic = AccountLogicController(session: ada)
            let short = try #require(await logic.send(.changePassword(current: "password123", new: "short")).content)
            #expect(short.fieldErrors[.newPassword] != nil)
            let wrong = try #require(
                await logic.send(.changePassword(current: "nope nope", new: "a new secret")).content)
            #expect(wrong.fieldErrors == [.currentPassword: "That is not your password."])
            let changed = try #require(
                await logic.send(.changePassword(current: "password123", new: "a new secret")).content)
            #expect(changed.notice == .passwordChanged && changed.fieldErrors.isEmpty)
            _ = try await fixture.raw.login("ada", password: "a new secret")
        }
    }

    @Test("the export is a ZIP of the account; deleting needs the password and forgets the session here")
    func exportAndDelete() async throws {
        try await SessionFixture.with { fixture in
            let ada = try await fixture.starter().register(username: "ada", password: "password123", displayName: "Ada")
            let archive = try await AccountModule(session: ada).exportArchive()
            #expect(archive.starts(with: [0x50, 0x4B, 0x03, 0x04]), "a ZIP's local file header")
            let logic = AccountLogicController(session: ada)
            let wrong = try #require(await logic.send(.delete(password: "not it at all")).content)
            #expect(wrong.fieldErrors[.deletePassword] != nil && !wrong.deleted)
            let deleted = try #require(await logic.send(.delete(password: "password123")).content)
            #expect(deleted.deleted)
            #expect(await ada.network.session.hasEnded, "the tokens are gone from this device")
            #expect(try await fixture.raw.get(APIRoutes.user.path(ada.userID)).status == 404)
        }
    }
}
