import BazaarAPI
import BazaarStorage
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// Trust across two real `bazaar-server` processes on one PostgreSQL: what one replica decides
/// holds on the other at once.
@Suite(
    "Trust across replicas", .serialized,
    .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct TrustReplicaTests {
    @Test func aSuspensionOnReplicaAClosesTheUsersSocketOnReplicaBWithinTwoSeconds() async throws {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let (a, b) = (replicas.clientA, replicas.clientB)
                let moderator = try await a.register("mona")
                let named = try await BazaarCLI(executable: "bazaar-server").run(
                    ["moderators", "add", "mona", "--postgres", database.urlWithPassword])
                #expect(named.exitCode == 0, "\(named.stderr)")
                let reporter = try await a.register("rita")
                let offender = try await b.register("oscar")
                let socket = try await EventSocket.connect(
                    baseURL: b.baseURL, credential: .header(offender.tokens.accessToken))
                let report = try await a.post(
                    APIRoutes.createReport.template,
                    CreateReportRequest(subjectType: .user, subjectId: offender.user.id, reason: .spam),
                    token: reporter.tokens.accessToken
                ).decode(Report.self)
                let resolved = try await a.post(
                    APIRoutes.resolveReport.path(report.id), ResolveReportRequest(action: .suspendUser),
                    token: moderator.tokens.accessToken)
                #expect(resolved.status == 200, "\(resolved.text)")
                let close = await socket.serverClosed(within: .seconds(2))
                #expect(close?.code == 1008, "closed on B with 1008, got \(String(describing: close))")
                #expect(try await b.get(APIRoutes.me.template, token: offender.tokens.accessToken).status == 401)
                let login = try await b.post(
                    APIRoutes.login.template, LoginRequest(username: "oscar", password: "password123"))
                #expect(login.status == 403 && login.errorCode == "account_suspended")
            }
        }
    }

    @Test func aBlockMadeOnReplicaAHoldsOnReplicaBAtOnce() async throws {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let (a, b) = (replicas.clientA, replicas.clientB)
                let ada = try await a.register("ada")
                let bob = try await a.register("bob")
                let conversation = try await b.startConversation(with: ada.user.id, token: bob.tokens.accessToken)
                let blocked = try await a.send(
                    .PUT, APIRoutes.blockUser.path(bob.user.id), token: ada.tokens.accessToken)
                #expect(blocked.status == 204)
                let sent = try await b.sendMessage("hey", in: conversation.id, token: bob.tokens.accessToken)
                #expect(sent.status == 403 && sent.errorCode == "blocked", "\(sent.text)")
            }
        }
    }
}
