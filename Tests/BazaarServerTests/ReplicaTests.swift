import BazaarAPI
import BazaarServer
import BazaarServerRuntime
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// Two real `bazaar-server` processes on one PostgreSQL act as one server: live events, refresh
/// rotation, idempotency, the product list and the login throttle all hold across them.
/// Serialized: each test starts two server processes, and seven pairs at once would starve the
/// timing-sensitive tests running beside them on a two-core machine.
@Suite(
    "Replicas on one PostgreSQL", .serialized,
    .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct ReplicaTests {
    @Test func aMessageSentThroughOneReplicaArrivesLiveOnTheOthersSocket() async throws {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let ada = try await replicas.clientA.register("ada")
                let bob = try await replicas.clientB.register("bob")
                let adaOnB = try await EventSocket.connect(
                    baseURL: replicas.clientB.baseURL, credential: .header(ada.tokens.accessToken))
                let bobOnA = try await EventSocket.connect(
                    baseURL: replicas.clientA.baseURL, credential: .header(bob.tokens.accessToken))
                let conversation = try await replicas.clientA.startConversation(
                    with: ada.user.id, token: bob.tokens.accessToken)
                let sent = try await replicas.clientA.sendMessage(
                    "hello across", in: conversation.id, token: bob.tokens.accessToken
                )
                .decode(Message.self)
                #expect(await adaOnB.next(timeout: .seconds(5)) == .messageCreated(sent))
                guard case .notificationCreated(let notification)? = await adaOnB.next(timeout: .seconds(5)) else {
                    Issue.record("expected notification.created on replica B")
                    return
                }
                #expect(notification.messageId == sent.id)
                // The sender's own socket, on replica A, hears it too; and each event exactly once.
                #expect(await bobOnA.next(timeout: .seconds(5)) == .messageCreated(sent))
                #expect(await adaOnB.next(timeout: .milliseconds(300)) == nil)
                await adaOnB.close()
                await bobOnA.close()
            }
        }
    }

    @Test func eventsWrittenWhileAReplicasListenerWasCutOffAreDeliveredWhenItListensAgain() async throws {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let ada = try await replicas.clientA.register("ada")
                let bob = try await replicas.clientB.register("bob")
                let adaOnB = try await EventSocket.connect(
                    baseURL: replicas.clientB.baseURL, credential: .header(ada.tokens.accessToken))
                let conversation = try await replicas.clientA.startConversation(
                    with: ada.user.id, token: bob.tokens.accessToken)
                // Both replicas' listening connections drop; the sends land before they notice
                // (a ping a second) and reconnect, so their NOTIFYs reach no one.
                #expect(try await PostgresTestDatabase.terminateListeners(on: database) == 2)
                var sent: [Message] = []
                for number in 0..<3 {
                    sent.append(
                        try await replicas.clientA.sendMessage(
                            "in the gap \(number)", in: conversation.id, token: bob.tokens.accessToken
                        )
                        .decode(Message.self))
                }
                var received: [Message] = []
                while received.count < sent.count, let event = await adaOnB.next(timeout: .seconds(10)) {
                    if case .messageCreated(let message) = event { received.append(message) }
                }
                #expect(received == sent, "replica B's log:\n\(replicas.logs())")
                await adaOnB.close()
            }
        }
    }

    @Test func aSpentRefreshTokenGetsTheSameSuccessorFromTheOtherReplicaThenItsReuseRevokesTheSessionOnBoth()
        async throws
    {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let ada = try await replicas.clientA.register("ada")
                let spend = RefreshRequest(refreshToken: ada.tokens.refreshToken)
                let rotated = try await replicas.clientA.post(APIRoutes.refresh.template, spend)
                expectStatus(rotated, 200)
                let first = try rotated.decode(Tokens.self)
                // The answer was lost; the client tries again and the balancer sends it to B.
                let replayed = try await replicas.clientB.post(APIRoutes.refresh.template, spend)
                expectStatus(replayed, 200)
                #expect(try replayed.decode(Tokens.self).refreshToken == first.refreshToken, "the same successor")
                let second = try await replicas.clientA.post(
                    APIRoutes.refresh.template, RefreshRequest(refreshToken: first.refreshToken)
                )
                .decode(Tokens.self)
                // Now the first token's successor is spent: presenting it again is a reuse.
                let reused = try await replicas.clientB.post(APIRoutes.refresh.template, spend)
                expectError(reused, 401, code: "refresh_token_reused")
                for client in [replicas.clientA, replicas.clientB] {
                    expectError(
                        try await client.get(APIRoutes.me.template, token: second.accessToken), 401,
                        code: "session_revoked")
                }
                expectError(
                    try await replicas.clientA.post(
                        APIRoutes.refresh.template, RefreshRequest(refreshToken: second.refreshToken)), 401)
            }
        }
    }

    @Test func aLogoutOnOneReplicaClosesTheSessionsSocketsOnBothWithin2Seconds() async throws {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let phone = try await replicas.clientA.register("ada")
                let laptop = try await replicas.clientB.login("ada")
                let onA = try await EventSocket.connect(
                    baseURL: replicas.clientA.baseURL, credential: .header(phone.tokens.accessToken))
                let onB = try await EventSocket.connect(
                    baseURL: replicas.clientB.baseURL, credential: .header(phone.tokens.accessToken))
                let otherSession = try await EventSocket.connect(
                    baseURL: replicas.clientB.baseURL, credential: .header(laptop.tokens.accessToken))

                expectStatus(
                    try await replicas.clientA.post(APIRoutes.logout.template, token: phone.tokens.accessToken), 204)

                for (replica, socket) in [("A", onA), ("B", onB)] {
                    let close = await socket.serverClosed(within: .seconds(2))
                    #expect(
                        close?.code == 1008,
                        "replica \(replica): \(String(describing: close))\n\(replicas.logs())")
                }
                #expect(otherSession.isOpen, "the user's other session keeps its socket")
                await otherSession.close()
            }
        }
    }

    @Test func oneIdempotencyKeySentToBothReplicasAtOnceStoresOneMessage() async throws {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let (ada, bob, conversation) = try await Self.adaAndBobInAConversation(replicas)
                for round in 0..<10 {
                    let key = "same-key-\(round)"
                    async let viaA = replicas.clientA.sendMessage(
                        "once \(round)", in: conversation.id, token: bob.tokens.accessToken, key: key)
                    async let viaB = replicas.clientB.sendMessage(
                        "once \(round)", in: conversation.id, token: bob.tokens.accessToken, key: key)
                    let (first, second) = try await (viaA, viaB)
                    expectStatus(first, 201)
                    expectStatus(second, 201)
                    #expect(try first.decode(Message.self) == second.decode(Message.self))
                    #expect([first, second].filter { $0.header(APIHeaders.idempotentReplayed) == "true" }.count == 1)
                }
                let history = try await replicas.clientB.get(
                    APIRoutes.messages.path(conversation.id) + "?limit=100", token: ada.tokens.accessToken
                )
                .decode(Page<Message>.self)
                #expect(history.items.count == 10)
                #expect(Set(history.items.map(\.body)).count == 10)
            }
        }
    }

    /// A send is one statement that updates its conversation's row and then takes the event lock;
    /// many at once into one conversation, from both members through both replicas, must all land
    /// (no deadlock, no lost update of the conversation's last message) and each exactly once.
    @Test func manySendsAtOnceIntoOneConversationThroughBothReplicasAllLandOnce() async throws {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let (ada, bob, conversation) = try await Self.adaAndBobInAConversation(replicas)
                // Five bursts of 40: the race on the conversation's last message is a matter of
                // which of two commits lands second, so one burst alone misses it often.
                for burst in 0..<5 {
                    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                        for index in 0..<40 {
                            let client = index % 2 == 0 ? replicas.clientA : replicas.clientB
                            let token = index % 4 < 2 ? ada.tokens.accessToken : bob.tokens.accessToken
                            group.addTask {
                                try await client.sendMessage(
                                    "burst \(burst)-\(index)", in: conversation.id, token: token,
                                    key: "burst-\(burst)-\(index)"
                                ).status
                            }
                        }
                        return try await group.reduce(into: [Int]()) { $0.append($1) }
                    }
                    #expect(statuses.allSatisfy { $0 == 201 }, "statuses: \(statuses)")
                    let history = try await replicas.clientB.get(
                        APIRoutes.messages.path(conversation.id) + "?limit=40", token: ada.tokens.accessToken
                    )
                    .decode(Page<Message>.self)
                    #expect(Set(history.items.map(\.body)) == Set((0..<40).map { "burst \(burst)-\($0)" }))
                    let listed = try await replicas.clientA.get(
                        APIRoutes.conversations.template, token: bob.tokens.accessToken
                    )
                    .decode(Page<Conversation>.self)
                    #expect(listed.items.first?.lastMessage?.id == history.items.first?.id, "burst \(burst)")
                }
            }
        }
    }

    @Test func aProductListedOnOneReplicaAppearsInTheOthersCachedList() async throws {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let ada = try await replicas.clientA.register("ada")
                _ = try await replicas.clientA.createProduct("Lamp", token: ada.tokens.accessToken)
                // B reads (and keeps) the list twice, so the second answer is its cached page.
                for _ in 0..<2 {
                    #expect(
                        try await replicas.clientB.get(APIRoutes.products.template).decode(Page<Product>.self).items
                            .map(\.title) == ["Lamp"])
                }
                let bike = try await replicas.clientA.createProduct("Bike", token: ada.tokens.accessToken)
                // B hears of it through NOTIFY, milliseconds after A answered.
                let clock = ContinuousClock()
                let start = clock.now
                var titles: [String] = []
                while clock.now - start < .seconds(10) {
                    titles = try await replicas.clientB.get(APIRoutes.products.template).decode(Page<Product>.self)
                        .items.map(\.title)
                    if titles.first == bike.title { break }
                    try await Task.sleep(for: .milliseconds(5))
                }
                #expect(titles == ["Bike", "Lamp"])
                // Nothing else empties B's cache, so seeing Bike at all proves the notification; the
                // bound is loose because a CI machine running every suite at once stalls for seconds.
                #expect(clock.now - start < .seconds(5))
            }
        }
    }

    @Test func failedLoginsOnBothReplicasAddUpToOneThrottle() async throws {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                _ = try await replicas.clientA.register("ada", password: "right-password")
                let wrong = LoginRequest(username: "ada", password: "wrong-password")
                // The default policy refuses the sixth attempt for a username: three here, two there.
                for client in [
                    replicas.clientA, replicas.clientB, replicas.clientA, replicas.clientB, replicas.clientA,
                ] {
                    expectError(try await client.post(APIRoutes.login.template, wrong), 401)
                }
                for client in [replicas.clientB, replicas.clientA] {
                    let refused = try await client.post(
                        APIRoutes.login.template, LoginRequest(username: "ada", password: "right-password"))
                    expectError(refused, 429, code: "too_many_attempts")
                    #expect(Int(refused.header("Retry-After") ?? "") ?? 0 > 0)
                }
            }
        }
    }

    @Test func aReplicaWithoutTheSharedSigningKeyRefusesToStart() async throws {
        try await PostgresTestDatabase.with { database in
            var configuration = BazaarTestHarness.configuration(
                directory: try BazaarTestHarness.makeTemporaryDirectory())
            configuration.postgres = database
            await #expect(throws: ConfigurationError.self) { try await BazaarServer(configuration: configuration) }
        }
    }

    /// Ada registered on replica A, Bob on B, and the conversation Bob opened with Ada through A.
    static func adaAndBobInAConversation(_ replicas: ReplicaPair) async throws -> (
        ada: AuthResponse, bob: AuthResponse, conversation: Conversation
    ) {
        let ada = try await replicas.clientA.register("ada")
        let bob = try await replicas.clientB.register("bob")
        let conversation = try await replicas.clientA.startConversation(
            with: ada.user.id, token: bob.tokens.accessToken)
        return (ada, bob, conversation)
    }
}
