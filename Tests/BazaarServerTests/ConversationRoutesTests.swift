import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Conversation and message routes")
struct ConversationRoutesTests {
    @Test func startingTwiceOrFromTheOtherSideGivesTheSameConversation() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let bike = try await client.createProduct("Bike", token: ada.tokens.accessToken)
            let first = try await client.post(
                APIRoutes.startConversation.template, StartConversationRequest(userId: ada.user.id, productId: bike.id),
                token: bo.tokens.accessToken)
            expectStatus(first, 201)
            let second = try await client.post(
                APIRoutes.startConversation.template, StartConversationRequest(userId: ada.user.id, productId: bike.id),
                token: bo.tokens.accessToken)
            expectStatus(second, 200)
            let fromAda = try await client.startConversation(
                with: bo.user.id, productId: bike.id, token: ada.tokens.accessToken)
            let created = try first.decode(Conversation.self)
            #expect(try second.decode(Conversation.self).id == created.id)
            #expect(fromAda.id == created.id)
            #expect(created.otherUser.id == ada.user.id)
            #expect(fromAda.otherUser.id == bo.user.id)
            #expect(created.product?.id == bike.id)
            // No product is a different conversation from the bike one.
            let general = try await client.startConversation(with: ada.user.id, token: bo.tokens.accessToken)
            #expect(general.id != created.id)
            #expect(general.product == nil)
        }
    }

    @Test("one conversation by id reads as the list shows it, to its members only; anyone else gets 404, no token 401")
    func oneConversationByIdIsItsMembersOnly() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let cy = try await client.register("cyd")
            let conversation = try await client.startConversation(with: ada.user.id, token: bo.tokens.accessToken)
            expectStatus(try await client.sendMessage("hello", in: conversation.id, token: bo.tokens.accessToken), 201)
            let path = APIRoutes.conversation.path(conversation.id)
            let asAda = try await client.get(path, token: ada.tokens.accessToken)
            expectStatus(asAda, 200)
            let listed = try await client.get(APIRoutes.conversations.template, token: ada.tokens.accessToken)
                .decode(Page<Conversation>.self).items.first
            #expect(try asAda.decode(Conversation.self) == listed, "the same conversation the list shows Ada")
            #expect(try asAda.decode(Conversation.self).unreadCount == 1)
            #expect(
                try await client.get(path, token: bo.tokens.accessToken).decode(Conversation.self).otherUser.id
                    == ada.user.id)
            expectError(try await client.get(path, token: cy.tokens.accessToken), 404)
            expectError(
                try await client.get(
                    APIRoutes.conversation.path(UUID().uuidString.lowercased()), token: ada.tokens.accessToken), 404)
            expectError(try await client.get(path), 401)
        }
    }

    @Test func startingWithYourselfOrAnUnknownUserOrProductIs422() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let token = ada.tokens.accessToken
            expectError(
                try await client.post(
                    APIRoutes.startConversation.template, StartConversationRequest(userId: ada.user.id), token: token),
                422)
            expectError(
                try await client.post(
                    APIRoutes.startConversation.template, StartConversationRequest(userId: "nobody"), token: token), 422
            )
            expectError(
                try await client.post(
                    APIRoutes.startConversation.template,
                    StartConversationRequest(userId: bo.user.id, productId: "nothing"), token: token),
                422)
        }
    }

    @Test func aConversationIsOnlyAboutAProductOneOfItsTwoMembersSells() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let carol = try await client.register("carol")
            let carolsLamp = try await client.createProduct("Lamp", token: carol.tokens.accessToken)
            let bobsBike = try await client.createProduct("Bike", token: bob.tokens.accessToken)
            let aboutCarols = try await client.post(
                APIRoutes.startConversation.template,
                StartConversationRequest(userId: bob.user.id, productId: carolsLamp.id), token: ada.tokens.accessToken)
            expectError(aboutCarols, 422)
            let aboutBobs = try await client.startConversation(
                with: bob.user.id, productId: bobsBike.id, token: ada.tokens.accessToken)
            #expect(aboutBobs.product?.id == bobsBike.id)
            // The seller may start it too, about what they sell.
            let fromTheSeller = try await client.startConversation(
                with: carol.user.id, productId: bobsBike.id, token: bob.tokens.accessToken)
            #expect(fromTheSeller.product?.id == bobsBike.id)
        }
    }

    @Test func aThirdUserCannotReadPostIntoOrMarkReadSomeoneElsesConversation() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let cy = try await client.register("cyd")
            let conversation = try await client.startConversation(with: ada.user.id, token: bo.tokens.accessToken)
            let sent = try await client.sendMessage("hello", in: conversation.id, token: bo.tokens.accessToken)
            expectStatus(sent, 201)
            let message = try sent.decode(Message.self)
            let intruder = cy.tokens.accessToken

            let read = try await client.get(APIRoutes.messages.path(conversation.id), token: intruder)
            let post = try await client.sendMessage("let me in", in: conversation.id, token: intruder)
            let markRead = try await client.post(
                APIRoutes.markRead.path(conversation.id), MarkReadRequest(upTo: message.id), token: intruder)
            let missing = try await client.get(APIRoutes.messages.path("no-such-conversation"), token: intruder)
            for response in [read, post, markRead, missing] { expectError(response, 404, code: "not_found") }
            // The answer for "not yours" is byte-for-byte the answer for "does not exist".
            #expect(read.body == missing.body)
            // And nothing leaked into the conversation.
            let messages = try await client.get(APIRoutes.messages.path(conversation.id), token: ada.tokens.accessToken)
            #expect(try messages.decode(Page<Message>.self).items.map(\.body) == ["hello"])
            // Nor into the intruder's list.
            let list = try await client.get(APIRoutes.conversations.template, token: intruder)
            #expect(try list.decode(Page<Conversation>.self).items.isEmpty)
        }
    }

    @Test func theSameIdempotencyKeyReturnsTheSameMessageAndNeverASecondOne() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let conversation = try await client.startConversation(with: ada.user.id, token: bo.tokens.accessToken)
            let first = try await client.sendMessage(
                "once", in: conversation.id, token: bo.tokens.accessToken, key: "key-1")
            let again = try await client.sendMessage(
                "once", in: conversation.id, token: bo.tokens.accessToken, key: "key-1")
            expectStatus(first, 201)
            expectStatus(again, 201)
            #expect(try first.decode(Message.self) == again.decode(Message.self))
            #expect(first.header(APIHeaders.idempotentReplayed) == nil)
            #expect(again.header(APIHeaders.idempotentReplayed) == "true")
            let page = try await client.get(APIRoutes.messages.path(conversation.id), token: ada.tokens.accessToken)
            #expect(try page.decode(Page<Message>.self).items.count == 1)
            // Ada got one notification, not two.
            let notifications = try await client.get(APIRoutes.notifications.template, token: ada.tokens.accessToken)
            #expect(try notifications.decode(Page<BazaarAPI.Notification>.self).items.count == 1)
            // The same key for a different body is a conflict.
            let different = try await client.sendMessage(
                "twice", in: conversation.id, token: bo.tokens.accessToken, key: "key-1")
            expectError(different, 409, code: "idempotency_key_reused")
            // Keys are per user: Ada may use "key-1" too.
            expectStatus(
                try await client.sendMessage("mine", in: conversation.id, token: ada.tokens.accessToken, key: "key-1"),
                201)
        }
    }

    @Test func concurrentSendsWithOneKeyCreateOneMessage() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let conversation = try await client.startConversation(with: ada.user.id, token: bo.tokens.accessToken)
            let token = bo.tokens.accessToken
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await client.sendMessage(
                            "racing", in: conversation.id, token: token, key: "same")
                        return try response.decode(Message.self).id
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            let page = try await client.get(APIRoutes.messages.path(conversation.id), token: token)
            #expect(try page.decode(Page<Message>.self).items.count == 1)
        }
    }

    @Test func sendingWithoutIdempotencyKeyIs400AndABadKeyIs422() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let conversation = try await client.startConversation(with: ada.user.id, token: bo.tokens.accessToken)
            let missing = try await client.post(
                APIRoutes.sendMessage.path(conversation.id), SendMessageRequest(body: "hi"),
                token: bo.tokens.accessToken)
            expectError(missing, 400, code: "missing_idempotency_key")
            let bad = try await client.sendMessage(
                "hi", in: conversation.id, token: bo.tokens.accessToken, key: String(repeating: "k", count: 256))
            expectError(bad, 422)
        }
    }

    @Test func messageBodyIs1To4000UnicodeCharactersNotBytes() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let conversation = try await client.startConversation(with: ada.user.id, token: bo.tokens.accessToken)
            let token = bo.tokens.accessToken
            // 4000 characters of 4 bytes each: 16000 bytes, still allowed.
            expectStatus(
                try await client.sendMessage(String(repeating: "🚲", count: 4000), in: conversation.id, token: token),
                201)
            expectError(
                try await client.sendMessage(String(repeating: "a", count: 4001), in: conversation.id, token: token),
                422, code: "invalid_field")
            expectError(try await client.sendMessage("", in: conversation.id, token: token), 422, code: "invalid_field")
            // NUL is refused (PostgreSQL text cannot store it); other control and astral characters round-trip.
            expectError(
                try await client.sendMessage("a\u{0}b", in: conversation.id, token: token), 422, code: "invalid_field")
            let odd = "tab\there \u{1F6B2}\u{200D} e\u{301} \u{7F}"
            let sent = try await client.sendMessage(odd, in: conversation.id, token: token).decode(Message.self)
            #expect(sent.body == odd)
            let page = try await client.get(APIRoutes.messages.path(conversation.id) + "?limit=1", token: token).decode(
                Page<Message>.self)
            #expect(page.items.first?.body == odd)
        }
    }

    @Test func newMessagesCountAsUnreadForTheOtherSideUntilMarkedRead() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let conversation = try await client.startConversation(with: ada.user.id, token: bo.tokens.accessToken)
            var last: Message?
            for text in ["one", "two", "three"] {
                last = try await client.sendMessage(text, in: conversation.id, token: bo.tokens.accessToken).decode(
                    Message.self)
            }
            let lastMessage = try #require(last)

            func unread(_ token: String) async throws -> Int? {
                let page = try await client.get(APIRoutes.conversations.template, token: token).decode(
                    Page<Conversation>.self)
                return page.items.first { $0.id == conversation.id }?.unreadCount
            }
            #expect(try await unread(ada.tokens.accessToken) == 3)
            #expect(try await unread(bo.tokens.accessToken) == 0)

            let adaConversations = try await client.get(APIRoutes.conversations.template, token: ada.tokens.accessToken)
                .decode(Page<Conversation>.self)
            #expect(adaConversations.items.first?.lastMessage == lastMessage)

            let notifications = try await client.get(APIRoutes.notifications.template, token: ada.tokens.accessToken)
                .decode(Page<BazaarAPI.Notification>.self)
            #expect(notifications.items.count == 3)
            #expect(
                notifications.items.allSatisfy {
                    !$0.read && $0.type == NotificationType.newMessage && $0.conversationId == conversation.id
                })
            #expect(notifications.items.first?.messageId == lastMessage.id)
            // The sender gets no notification for their own message.
            let bosNotifications = try await client.get(APIRoutes.notifications.template, token: bo.tokens.accessToken)
            #expect(try bosNotifications.decode(Page<BazaarAPI.Notification>.self).items.isEmpty)

            let messages = try await client.get(APIRoutes.messages.path(conversation.id), token: ada.tokens.accessToken)
                .decode(Page<Message>.self)
            let second = messages.items[1]
            expectStatus(
                try await client.post(
                    APIRoutes.markRead.path(conversation.id), MarkReadRequest(upTo: second.id),
                    token: ada.tokens.accessToken), 204)
            #expect(try await unread(ada.tokens.accessToken) == 1)
            expectStatus(
                try await client.post(
                    APIRoutes.markRead.path(conversation.id), MarkReadRequest(upTo: lastMessage.id),
                    token: ada.tokens.accessToken), 204)
            #expect(try await unread(ada.tokens.accessToken) == 0)
            // Marking an older message read later does not move the marker back.
            expectStatus(
                try await client.post(
                    APIRoutes.markRead.path(conversation.id), MarkReadRequest(upTo: second.id),
                    token: ada.tokens.accessToken), 204)
            #expect(try await unread(ada.tokens.accessToken) == 0)
            // Reading the conversation also read its notifications.
            let after = try await client.get(APIRoutes.notifications.template, token: ada.tokens.accessToken)
                .decode(Page<BazaarAPI.Notification>.self)
            #expect(after.items.allSatisfy { $0.read })
            // A message id from nowhere is a field error.
            expectError(
                try await client.post(
                    APIRoutes.markRead.path(conversation.id), MarkReadRequest(upTo: "nope"),
                    token: ada.tokens.accessToken), 422)
        }
    }

    @Test func conversationsAreListedNewestActivityFirst() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let cy = try await client.register("cyd")
            let withBo = try await client.startConversation(with: bo.user.id, token: ada.tokens.accessToken)
            let withCy = try await client.startConversation(with: cy.user.id, token: ada.tokens.accessToken)
            try await Task.sleep(for: .milliseconds(5))
            expectStatus(try await client.sendMessage("bump", in: withBo.id, token: bo.tokens.accessToken), 201)
            let page = try await client.get(APIRoutes.conversations.template, token: ada.tokens.accessToken).decode(
                Page<Conversation>.self)
            #expect(page.items.map(\.id) == [withBo.id, withCy.id])
            let firstOnly = try await client.get(
                APIRoutes.conversations.template + "?limit=1", token: ada.tokens.accessToken
            )
            .decode(Page<Conversation>.self)
            #expect(firstOnly.items.map(\.id) == [withBo.id])
            let cursor = try #require(firstOnly.nextCursor)
            let rest = try await client.get(
                APIRoutes.conversations.template + "?limit=1&cursor=\(cursor)", token: ada.tokens.accessToken
            )
            .decode(Page<Conversation>.self)
            #expect(rest.items.map(\.id) == [withCy.id])
            #expect(rest.nextCursor == nil)
        }
    }

    @Test func messagesPageNewestFirstWithBeforeCursor() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let conversation = try await client.startConversation(with: ada.user.id, token: bo.tokens.accessToken)
            for index in 1...5 {
                expectStatus(
                    try await client.sendMessage("m\(index)", in: conversation.id, token: bo.tokens.accessToken), 201)
            }
            var bodies: [String] = []
            var cursor: String?
            repeat {
                let query = "?limit=2" + (cursor.map { "&before=\($0)" } ?? "")
                let page = try await client.get(
                    APIRoutes.messages.path(conversation.id) + query, token: ada.tokens.accessToken
                )
                .decode(Page<Message>.self)
                bodies += page.items.map(\.body)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(bodies == ["m5", "m4", "m3", "m2", "m1"])
            let notOurs = try await client.get(
                APIRoutes.messages.path(conversation.id) + "?before=bogus", token: ada.tokens.accessToken)
            expectError(notOurs, 400, code: "invalid_cursor")
        }
    }
}
