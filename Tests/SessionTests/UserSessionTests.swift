import BazaarAPI
import Foundation
import HTTPTypes
import Hummingbird
import Networking
import Session
import TestSupport
import Testing

@Suite("Login, the user model and logout against the real bazaar-server", .timeLimit(.minutes(2)))
struct UserSessionTests {
    @Test("login returns a session whose user is the one who logged in; wrong passwords are 401")
    func loginStartsSession() async throws {
        try await SessionFixture.with { fixture in
            _ = try await fixture.raw.register("erin", password: "correct horse")
            let session = try await fixture.starter().login(username: "erin", password: "correct horse")
            #expect(await session.user.user.username == "erin")
            await #expect {
                try await fixture.starter().login(username: "erin", password: "wrong password")
            } throws: { error in
                (error as? NetworkError)?.status == .unauthorized
            }
        }
    }

    @Test("registering a taken username is a 409 with the server's code")
    func registerTakenUsername() async throws {
        try await SessionFixture.with { fixture in
            _ = try await fixture.raw.register("finn")
            await #expect {
                try await fixture.starter().register(username: "finn", password: "password123", displayName: "F")
            } throws: { error in
                (error as? NetworkError)?.serverCode == "username_taken"
            }
        }
    }

    @Test("rename updates the server and the local user at once; sync reads the server")
    func renameAndSync() async throws {
        try await SessionFixture.with { fixture in
            let session = try await fixture.starter().register(
                username: "gus", password: "password123", displayName: "Gus")
            try await session.user.rename(to: "Gustav")
            #expect(await session.user.user.displayName == "Gustav")
            let fromServer = try await fixture.raw.get("/v1/users/\(session.userID)").decode(User.self)
            #expect(fromServer.displayName == "Gustav")
            let synced = try await session.user.sync()
            #expect(synced.displayName == "Gustav")
        }
    }

    @Test("logout revokes on the server, deletes the token file and wipes the user's cache partition")
    func logoutCleansUp() async throws {
        try await SessionFixture.with { fixture in
            let response = try await fixture.raw.register("hal")
            let session = try await fixture.starter().start(with: response)
            let outcome = await session.logout()
            #expect(outcome.revokedOnServer)
            #expect(!FileManager.default.fileExists(atPath: fixture.tokenFile.path))
            let refresh = try await fixture.raw.post(
                "/v1/auth/refresh", RefreshRequest(refreshToken: response.tokens.refreshToken))
            #expect(refresh.status == 401, "the refresh token no longer works")
            await #expect {
                try await session.network.request(BazaarEndpoints.me)
            } throws: { error in
                (error as? NetworkError)?.isSessionExpired == true
            }
        }
    }

    @Test("logout still cleans up locally when the server cannot be reached")
    func logoutOffline() async throws {
        let response = try await SessionFixture.with { fixture in try await fixture.raw.register("ivy") }
        // The server is gone now; its port refuses connections.
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokenFile = folder.appendingPathComponent("tokens.json")
        let port = try await TestServer.withRouter(Router()) { $0.port ?? 0 }
        var performer = NetworkRequestPerformer(retryPolicy: .never)
        performer.timeout = .seconds(5)
        let starter = SessionStarter(
            client: .bazaar(baseURL: URL(string: "http://127.0.0.1:\(port)")!, performer: performer),
            tokenStore: FileTokenStore(url: tokenFile))
        let session = try await starter.start(with: response)
        #expect(FileManager.default.fileExists(atPath: tokenFile.path))
        let outcome = await session.logout()
        #expect(!outcome.revokedOnServer)
        #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
    }

    @Test("the seed's completion-handler form delivers the login")
    func completionHandlerLogin() async throws {
        try await SessionFixture.with { fixture in
            _ = try await fixture.raw.register("joe")
            let result = await withCheckedContinuation { continuation in
                fixture.starter().loginPerformer.login(username: "joe", password: "password123") {
                    continuation.resume(returning: $0)
                }
            }
            let response = try result.get()
            #expect(response.user.username == "joe")
        }
    }
}
