import BazaarAPI
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// A replica on PostgreSQL answers the session check of an authenticated request from its memory
/// of active sessions, and that memory never outlives a revocation it could hear of: revocations
/// made by the other replica reach it through its event listener, and losing the listener makes
/// it ask the database again.
@Suite(
    "The memory of active sessions across replicas", .serialized,
    .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct SessionMemoReplicaTests {
    @Test func aLogoutOnOneReplicaIsRefusedOnTheOtherThoughItRememberedTheSession() async throws {
        try await Self.withAdaRememberedByB { _, replicas, ada in
            let token = ada.tokens.accessToken

            expectStatus(try await replicas.clientA.post(APIRoutes.logout.template, token: token), 204)

            let refused = try await Self.firstRefusal(of: token, by: replicas.clientB, within: .seconds(2))
            #expect(refused, "replica B still accepts the session 2 s after its logout\n\(replicas.logs())")
        }
    }

    @Test func aReplicaThatLosesItsListenerForgetsWhatItRemembered() async throws {
        try await Self.withAdaRememberedByB { database, replicas, ada in
            let token = ada.tokens.accessToken

            // Revoked where no replica can hear of it: B answers from its memory, A (which
            // never checked the session) asks the database.
            try await PostgresTestDatabase.revokeSessionsSilently(of: ada.user.id, on: database)
            expectStatus(try await replicas.clientB.get(APIRoutes.me.template, token: token), 200)
            expectError(
                try await replicas.clientA.get(APIRoutes.me.template, token: token), 401, code: "session_revoked")

            // Once B's listener is gone, so is what B remembered.
            #expect(try await PostgresTestDatabase.terminateListeners(on: database) == 2)
            let refused = try await Self.firstRefusal(of: token, by: replicas.clientB, within: .seconds(5))
            #expect(
                refused, "replica B still believes its memory 5 s after losing its listener\n\(replicas.logs())")
            // And it does not believe it again once its listener is back and vouching (a lease
            // that lapsed alone would refuse for a moment, then accept).
            #expect(try await replicas.clientB.memos(believed: true), "\(replicas.logs())")
            expectError(
                try await replicas.clientB.get(APIRoutes.me.template, token: token), 401, code: "session_revoked")
        }
    }

    /// Runs `body` with two replicas on a new database, ada registered through A and her session
    /// remembered by B.
    static func withAdaRememberedByB(
        _ body: (PostgresURL, ReplicaPair, AuthResponse) async throws -> Void
    ) async throws {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let ada = try await replicas.clientA.register("ada")
                try await untilRemembered(ada.tokens.accessToken, by: replicas.clientB)
                try await body(database, replicas, ada)
            }
        }
    }

    /// Waits until `client`'s replica vouches for its memory (its listener's lease comes with the
    /// first ping after it has caught up, a second or so), then has it find the session active.
    static func untilRemembered(_ token: String, by client: BazaarTestClient) async throws {
        #expect(try await client.memos(believed: true))
        expectStatus(try await client.get(APIRoutes.me.template, token: token), 200)
    }

    /// Whether `client`'s replica answers `GET /v1/me` with `token` 401 `session_revoked` within `limit`.
    static func firstRefusal(of token: String, by client: BazaarTestClient, within limit: Duration) async throws
        -> Bool
    {
        try await eventually(within: limit) {
            let answer = try await client.get(APIRoutes.me.template, token: token)
            if answer.status == 401 { return true }
            expectStatus(answer, 200)
            return false
        }
    }
}
