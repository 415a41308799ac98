import BazaarAPI
import BazaarServer
import BazaarStorage
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// A replica on PostgreSQL answers a conversation's newest history page from its memory, and that
/// memory never hides a change it could hear of: a message sent, removed by a moderator, or its
/// photos taken by an account's erasure through the other replica reaches it through its event
/// listener before any socket of it is told, and the writing replica's own page takes its message.
@Suite(
    "The memory of history pages across replicas", .serialized,
    .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct HistoryMemoReplicaTests {
    /// Two members of one conversation, and the page each replica holds of it.
    struct Scene {
        let database: PostgresURL
        let replicas: ReplicaPair
        let ada: AuthResponse
        let bob: AuthResponse
        let conversation: Conversation

        /// The page as bob reads it on replica B, newest first.
        func bobsPageOnB() async throws -> [Message] {
            try await page(replicas.clientB, as: bob)
        }

        /// The page as `user` reads it through `client`, newest first.
        func page(_ client: BazaarTestClient, as user: AuthResponse) async throws -> [Message] {
            let answer = try await client.get(APIRoutes.messages.path(conversation.id), token: user.tokens.accessToken)
            expectStatus(answer, 200)
            return try answer.decode(Page<Message>.self).items
        }
    }

    @Test func aMessageSentThroughOneReplicaIsInTheOthersPageBeforeItsSocketTellsOfIt() async throws {
        try await Self.withPagesHeld { scene in
            // Added where no replica can hear of it: B answers its page from memory.
            try await PostgresTestDatabase.addMessageSilently(
                "unheard", in: scene.conversation.id, from: scene.ada.user.id, on: scene.database)
            #expect(try await scene.bobsPageOnB().map(\.body) == ["hello"], "B answers its page from its memory")

            let socket = try await EventSocket.connect(
                baseURL: scene.replicas.clientB.baseURL, credential: .header(scene.bob.tokens.accessToken))
            let sent = try await scene.replicas.clientA.sendMessage(
                "how much?", in: scene.conversation.id, token: scene.ada.tokens.accessToken
            ).decode(Message.self)
            let told = await socket.first(within: .seconds(5)) { event in
                if case .messageCreated(let message) = event { message.id == sent.id } else { false }
            }
            await socket.close()
            #expect(told != nil, "B's socket never told of the message\n\(scene.replicas.logs())")
            // B dropped its page when it heard, so it reads the page again, with what A sent and
            // what was added unheard.
            #expect(try await scene.bobsPageOnB().map(\.body) == ["how much?", "unheard", "hello"])
            // A kept its own page current with its send.
            #expect(try await scene.page(scene.replicas.clientA, as: scene.ada).first?.id == sent.id)
        }
    }

    @Test func aMessageRemovedThroughOneReplicaIsRemovedInTheOthersPage() async throws {
        try await Self.withPagesHeld { scene in
            var configuration = BazaarServerConfiguration(port: 0)
            configuration.postgres = scene.database
            _ = try await scene.replicas.clientA.register("mona")
            try await configuration.nameModerator("mona")
            let mona = try await scene.replicas.clientA.login("mona")
            let hello = try #require(try await scene.bobsPageOnB().first)
            let report = try await scene.replicas.clientA.post(
                APIRoutes.createReport.template,
                CreateReportRequest(subjectType: .message, subjectId: hello.id, reason: .scam, note: nil),
                token: scene.bob.tokens.accessToken
            ).decode(Report.self)

            expectStatus(
                try await scene.replicas.clientA.post(
                    APIRoutes.resolveReport.path(report.id), ResolveReportRequest(action: .removeMessage, note: nil),
                    token: mona.tokens.accessToken), 200)

            let removed = try await eventually(within: .seconds(5)) {
                try await scene.bobsPageOnB().first?.removed == true
            }
            #expect(removed, "B's page still shows the removed message 5 s on\n\(scene.replicas.logs())")
            #expect(try await scene.page(scene.replicas.clientA, as: scene.ada).first?.body == Message.removedBody)
        }
    }

    @Test func photosTakenByAnErasureThroughOneReplicaLeaveTheOthersPage() async throws {
        try await Self.withPagesHeld(firstMessageHasAPhoto: true) { scene in
            #expect(try await scene.bobsPageOnB().first?.attachments.count == 1)

            expectStatus(
                try await scene.replicas.clientA.send(
                    .DELETE, APIRoutes.deleteAccount.template, json: DeleteAccountRequest(password: "password123"),
                    token: scene.ada.tokens.accessToken), 204)

            let gone = try await eventually(within: .seconds(5)) {
                try await scene.bobsPageOnB().first?.attachments.isEmpty == true
            }
            #expect(gone, "B's page still shows the erased account's photo 5 s on\n\(scene.replicas.logs())")
        }
    }

    /// Runs `body` with two replicas on a new database, ada and bob in a conversation with one
    /// message from ada ("hello", with a photo when asked), its page held by both replicas.
    static func withPagesHeld(firstMessageHasAPhoto: Bool = false, _ body: (Scene) async throws -> Void)
        async throws
    {
        try await PostgresTestDatabase.with { database in
            try await ReplicaPair.run(on: database) { replicas in
                let ada = try await replicas.clientA.register("ada")
                let bob = try await replicas.clientA.register("bob")
                let conversation = try await replicas.clientA.startConversation(
                    with: bob.user.id, token: ada.tokens.accessToken)
                var photos: [String] = []
                if firstMessageHasAPhoto {
                    photos.append(
                        try await replicas.clientA.uploadAttachment(
                            TestImages.jpeg(), to: conversation.id, token: ada.tokens.accessToken
                        ).decode(Photo.self).id)
                }
                expectStatus(
                    try await replicas.clientA.sendMessage(
                        "hello", attachmentIds: photos, in: conversation.id, token: ada.tokens.accessToken), 201)
                let scene = Scene(
                    database: database, replicas: replicas, ada: ada, bob: bob, conversation: conversation)
                // The memo is believed only within the listener's lease, which comes with the first
                // ping after it has caught up (a second or so); once each replica says so, read the
                // page on both so each holds it.
                for client in [replicas.clientA, replicas.clientB] {
                    #expect(try await client.memos(believed: true), "\(replicas.logs())")
                }
                #expect(try await scene.bobsPageOnB().map(\.body) == ["hello"])
                #expect(try await scene.page(replicas.clientA, as: ada).map(\.body) == ["hello"])
                try await body(scene)
            }
        }
    }
}
