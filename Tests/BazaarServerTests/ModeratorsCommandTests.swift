import BazaarAPI
import BazaarServer
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// `bazaar-server moderators`, run as the operator runs it, against the database a server is
/// serving at that moment, on both engines.
@Suite("bazaar-server moderators", .timeLimit(.minutes(2)))
struct ModeratorsCommandTests {
    @Test(arguments: StorageKind.available)
    func theOperatorNamesAModeratorWhileTheServerRuns(storage: StorageKind) async throws {
        try await storage.withConfiguration { configuration in
            let database = configuration.databaseArguments
            let operatorTool = BazaarCLI(executable: "bazaar-server")
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                let ada = try await client.register("ada")
                let token = ada.tokens.accessToken
                #expect(try await client.get(APIRoutes.me.template, token: token).decode(User.self).role == .member)

                let empty = try await operatorTool.run(["moderators", "list"] + database)
                #expect(empty.exitCode == 0 && empty.stdout == "no moderators\n", "\(empty.stderr)")
                let added = try await operatorTool.run(["moderators", "add", "ada"] + database)
                #expect(added.exitCode == 0, "\(added.stderr)")
                #expect(added.stdout == "ada is now a moderator\n")
                // No restart: the server reads the role from the database.
                #expect(try await client.get(APIRoutes.me.template, token: token).decode(User.self).role == .moderator)
                let listed = try await operatorTool.run(["moderators", "list"] + database)
                #expect(listed.stdout.hasPrefix("ada\t"), "\(listed.stdout)")
                // Nobody else learns it: a public profile has no role.
                let profile = try await client.get(APIRoutes.user.path(ada.user.id))
                #expect(!profile.text.contains("role"), "\(profile.text)")

                let removed = try await operatorTool.run(["moderators", "remove", "ada"] + database)
                #expect(removed.stdout == "ada is now a member\n", "\(removed.stderr)")
                #expect(try await client.get(APIRoutes.me.template, token: token).decode(User.self).role == .member)
                let unknown = try await operatorTool.run(["moderators", "add", "zed"] + database)
                #expect(unknown.exitCode == 66)
                #expect(unknown.stderr == "bazaar-server: no user is named zed\n", "\(unknown.stderr)")
            }
        }
    }

    @Test("a SQLite file that does not exist is refused with one line, and nothing is created")
    func missingFileIsRefused() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nothing.sqlite").path
        let outcome = try await BazaarCLI(executable: "bazaar-server").run(["moderators", "list", "--sqlite", path])
        #expect(outcome.exitCode == 64, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("does not exist"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
