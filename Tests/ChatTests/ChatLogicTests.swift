import BazaarAPI
import Chat
import Dependencies
import Foundation
import Networking
import Session
import Synchronization
import TestSupport
import Testing

@Suite("Conversations and messages logic against the real bazaar-server", .timeLimit(.minutes(2)))
struct ChatLogicTests {
    static func outbox(for session: UserSession, in folder: URL) throws -> Outbox {
        try Outbox(
            path: folder.appendingPathComponent("outbox-\(session.userID).sqlite").path,
            deliverer: BazaarOutboxDeliverer(network: session.network))
    }

    /// A buyer signed in through the kit, a seller's conversation with them, and a path for the
    /// buyer's outbox file in a folder removed afterwards.
    static func withBuyersConversation(
        buyer name: String, seller sellerName: String,
        _ body: (UserSession, Conversation, String) async throws -> Void
    ) async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: name, password: "password123", displayName: name.capitalized)
            let seller = try await fixture.raw.register(sellerName)
            let conversation = try await fixture.raw.startConversation(
                with: buyer.userID, token: seller.tokens.accessToken)
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await body(buyer, conversation, folder.appendingPathComponent("outbox.sqlite").path)
        }
    }

    @Test("the list shows each conversation with the other person, product, last message and unread count")
    func conversationList() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await fixture.starter().register(
                username: "sella", password: "password123", displayName: "Sella")
            let buyer = try await fixture.raw.register("buyer")
            let product = try await fixture.raw.createProduct(
                "Bike", token: seller.network.session.validTokens().accessToken)
            let conversation = try await fixture.raw.startConversation(
                with: seller.userID, productId: product.id, token: buyer.tokens.accessToken)
            _ = try await fixture.raw.sendMessage("hi", in: conversation.id, token: buyer.tokens.accessToken)
            _ = try await fixture.raw.sendMessage("still there?", in: conversation.id, token: buyer.tokens.accessToken)
            let state = await ConversationsLogicController(network: seller.network).send(.load)
            let first = try #require(state.content?.conversations.first)
            #expect(first.otherUser.username == "buyer")
            #expect(first.product?.title == "Bike")
            #expect(first.lastMessage?.body == "still there?")
            #expect(first.unreadCount == 2)
        }
    }

    @Test("starting a conversation with a seller about a product twice gives the same conversation")
    func startIsIdempotent() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "bud", password: "password123", displayName: "Bud")
            let seller = try await fixture.raw.register("seth")
            let product = try await fixture.raw.createProduct("Lamp", token: seller.tokens.accessToken)
            let logic = ConversationsLogicController(network: buyer.network)
            let first = await logic.send(.start(withUser: seller.user.id, aboutProduct: product.id))
            let second = await logic.send(.start(withUser: seller.user.id, aboutProduct: product.id))
            #expect(first.content?.started?.id != nil && first.content?.started?.id == second.content?.started?.id)
            let missing = await logic.send(.start(withUser: "no-such-user", aboutProduct: nil))
            #expect(missing.error?.kind == .invalidInput, "the server refuses an unknown user id as a field error")
        }
    }

    @Test("messages page back through history, oldest first on screen")
    func historyPaging() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "hana", password: "password123", displayName: "Hana")
            let seller = try await fixture.raw.register("hugo")
            let conversation = try await fixture.raw.startConversation(
                with: buyer.userID, token: seller.tokens.accessToken)
            for index in 1...7 {
                _ = try await fixture.raw.sendMessage(
                    "m\(index)", in: conversation.id, token: seller.tokens.accessToken)
            }
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let logic = MessagesLogicController(
                network: buyer.network, outbox: try Self.outbox(for: buyer, in: folder),
                target: .conversation(id: conversation.id), pageSize: 3)
            let newest = await logic.send(.load)
            #expect(newest.content?.messages.map(\.body) == ["m5", "m6", "m7"])
            _ = await logic.send(.loadOlder)
            let all = await logic.send(.loadOlder)
            #expect(all.content?.messages.map(\.body) == ["m1", "m2", "m3", "m4", "m5", "m6", "m7"])
            #expect(all.content?.hasOlder == false)
        }
    }

    @Test("sending shows the message as pending, then delivered; marking read clears the unread count")
    func sendAndMarkRead() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "ivan", password: "password123", displayName: "Ivan")
            let seller = try await fixture.raw.register("iris")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let outbox = try Self.outbox(for: buyer, in: folder)
            let screen = ChatModule(session: buyer, outbox: outbox).messagesScreen(user: seller.user, product: nil)
            _ = await screen.logic.send(.load)
            let pending = await screen.logic.send(.send("hello Iris"))
            #expect(pending.content?.pending.map(\.body) == ["hello Iris"])
            #expect(await outbox.flush())
            let delivered = await screen.logic.send(.refresh)
            #expect(delivered.content?.messages.map(\.body) == ["hello Iris"])
            #expect(delivered.content?.pending.isEmpty == true)

            // Iris replies; Ivan reads it.
            let conversationID = try #require(delivered.content?.conversation.id)
            _ = try await fixture.raw.sendMessage("hi Ivan", in: conversationID, token: seller.tokens.accessToken)
            _ = await screen.logic.send(.refresh)
            let read = await screen.logic.send(.markRead)
            #expect(read.content?.conversation.unreadCount == 0)
            let fromServer = await ConversationsLogicController(network: buyer.network).send(.load)
            #expect(fromServer.content?.conversations.first?.unreadCount == 0)
        }
    }

    @Test("opening someone else's conversation fails as not found")
    func othersConversationIsNotFound() async throws {
        try await SessionFixture.with { fixture in
            let outsider = try await fixture.starter().register(
                username: "jack", password: "password123", displayName: "Jack")
            let a = try await fixture.raw.register("kim")
            let b = try await fixture.raw.register("lee")
            let conversation = try await fixture.raw.startConversation(with: b.user.id, token: a.tokens.accessToken)
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let logic = MessagesLogicController(
                network: outsider.network, outbox: try Self.outbox(for: outsider, in: folder),
                target: .conversation(id: conversation.id))
            #expect(await logic.send(.load).error?.kind == .notFound)
        }
    }

    @Test(
        "after a restart, a message the server stored but whose answer was lost shows once, and an older one with the same text stays"
    )
    func lostAnswerShowsOnceAfterRestart() async throws {
        try await Self.withBuyersConversation(buyer: "vera", seller: "vic") { buyer, conversation, path in
            // The first "ok" is answered; the second is stored by the server, its answer lost.
            let losing = try Outbox(
                path: path, deliverer: LosesAnswers(real: BazaarOutboxDeliverer(network: buyer.network), after: 1))
            _ = try await losing.enqueue("ok", to: .conversation(id: conversation.id))
            #expect(await losing.flush())
            let unanswered = try await losing.enqueue("ok", to: .conversation(id: conversation.id))
            #expect(await losing.flush() == false, "the lost answer keeps the entry queued")

            // The app starts again over the same file and opens the conversation.
            let restarted = try Outbox(path: path, deliverer: BazaarOutboxDeliverer(network: buyer.network))
            let logic = MessagesLogicController(
                network: buyer.network, outbox: restarted, target: .conversation(id: conversation.id))
            let content = try #require(await logic.send(.load).content)
            #expect(content.messages.map(\.body) == ["ok", "ok"], "both messages, the older one not hidden")
            #expect(content.pending.isEmpty, "the stored message is not also shown as queued")
            let entry = try #require(try await restarted.entries().first { $0.id == unanswered.id })
            #expect(entry.state == .sent(messageID: try #require(content.messages.last?.id)), "settled by the replay")
        }
    }

    @Test("opening a conversation while a pass delivers one of its messages does not wait for that answer")
    func openingDoesNotWaitForARunningPass() async throws {
        try await Self.withBuyersConversation(buyer: "wanda", seller: "walt") { buyer, conversation, path in
            let late = AnsweredLate(real: BazaarOutboxDeliverer(network: buyer.network))
            let outbox = try Outbox(path: path, deliverer: late)
            _ = try await outbox.enqueue("on its way", to: .conversation(id: conversation.id))
            let flushing = Task { await outbox.flush() }
            #expect(
                try await eventually(within: .seconds(10)) {
                    try await outbox.entries().first?.state == .sending
                })

            let logic = MessagesLogicController(
                network: buyer.network, outbox: outbox, target: .conversation(id: conversation.id))
            let opened = Flag()
            let opening = Task {
                let content = await logic.send(.load).content
                opened.raise()
                return content
            }
            let openedFirst = try await eventually(within: .seconds(10)) { opened.isRaised }
            late.answer()
            #expect(await flushing.value)
            let content = try #require(await opening.value)
            #expect(openedFirst, "the screen waited for the held answer")
            #expect(content.pending.map(\.state) == (openedFirst ? [.sending] : []))
        }
    }
}

/// A test's one-way signal, raised once from any task and read without waiting.
final class Flag: Sendable {
    private let raised = Mutex(false)

    func raise() { raised.withLock { $0 = true } }

    var isRaised: Bool { raised.withLock { $0 } }
}
