import BazaarAPI
import Chat
import Dependencies
import Foundation
import LiveEvents
import Networking
import Session
import TestSupport
import Testing

/// What the messages logic does on its own while its screen is open (its states watched), so no
/// renderer has to: live messages once each, read receipts, outbox entries from queued to sent.
@Suite("MessagesLogicController while the screen is open", .timeLimit(.minutes(2)))
struct OpenConversationTests {
    /// The buyer's open screen on a conversation with `seller`, with its live socket and outbox.
    struct OpenScreen {
        let logic: any MessagesLogic
        let outbox: Outbox
        let connection: LiveEventsConnection
        let conversationID: String
    }

    static func open(_ buyer: UserSession, with seller: User, fixture: SessionFixture, folder: URL) async throws
        -> OpenScreen
    {
        let connection = LiveEventsConnection(baseURL: fixture.baseURL, network: buyer.network)
        let outbox = try Outbox.testOutbox(in: folder, for: buyer)
        let screen = ChatModule(session: buyer, outbox: outbox, connection: connection).messagesScreen(
            user: seller, product: nil)
        let conversationID = try #require(await screen.logic.send(.load).content?.conversation.id)
        return OpenScreen(logic: screen.logic, outbox: outbox, connection: connection, conversationID: conversationID)
    }

    @Test("a live message shows once, also after a refresh fetches it again, and is marked read while open")
    func liveMessageOnceAndRead() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "ola", password: "password123", displayName: "Ola")
            let seller = try await fixture.raw.register("oto")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let open = try await Self.open(buyer, with: seller.user, fixture: fixture, folder: folder)
            let states = await open.logic.states()
            _ = try await fixture.raw.sendMessage(
                "still for sale?", in: open.conversationID, token: seller.tokens.accessToken)
            let arrived = await first(states, within: .seconds(10)) {
                $0.content?.messages.contains { $0.body == "still for sale?" } == true
            }
            #expect(arrived != nil)
            let refreshed = await open.logic.send(.refresh)
            #expect(refreshed.content?.messages.filter { $0.body == "still for sale?" }.count == 1)
            // Marked read on the server: the seller's message stops counting as unread for the buyer.
            // The screen's own count was 0 all along, so the server is asked until it agrees.
            let network = buyer.network
            let conversationID = open.conversationID
            let readOnServer = await within(.seconds(10), else: false) {
                while !Task.isCancelled {
                    let list = await ConversationsLogicController(network: network).send(.load)
                    if list.content?.conversations.first(where: { $0.id == conversationID })?.unreadCount == 0 {
                        return true
                    }
                    try? await Task.sleep(for: .milliseconds(50))
                }
                return false
            }
            #expect(readOnServer, "the open screen marked the seller's message read within 10 s")
            await open.connection.stop()
        }
    }

    @Test("a renderer that keeps only the states stream still gets live messages")
    func streamKeepsItsScreen() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "sia", password: "password123", displayName: "Sia")
            let seller = try await fixture.raw.register("sol")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let connection = LiveEventsConnection(baseURL: fixture.baseURL, network: buyer.network)
            let outbox = try Outbox.testOutbox(in: folder, for: buyer)
            // The logic goes out of scope at once, as in a web handler that returns a streaming body.
            let (states, conversationID) = try await {
                () async throws -> (AsyncStream<ScreenState<MessagesContent>>, String) in
                let logic = ChatModule(session: buyer, outbox: outbox, connection: connection)
                    .messagesScreen(user: seller.user, product: nil).logic
                let id = try #require(await logic.send(.load).content?.conversation.id)
                return (await logic.states(), id)
            }()
            #expect(await first(states, within: .seconds(10)) { $0.content != nil } != nil)
            // The screen's socket is up on the server before the message is sent: it comes live.
            #expect(try await fixture.waitForServerLiveSockets(1) == 1)
            _ = try await fixture.raw.sendMessage(
                "are you there?", in: conversationID, token: seller.tokens.accessToken)
            let arrived = await first(states, within: .seconds(10)) {
                $0.content?.messages.contains { $0.body == "are you there?" } == true
            }
            #expect(arrived != nil)
            await connection.stop()
        }
    }

    @Test("nobody watching: an incoming message is not marked read")
    func notOpenNotRead() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "pia", password: "password123", displayName: "Pia")
            let seller = try await fixture.raw.register("pal")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let open = try await Self.open(buyer, with: seller.user, fixture: fixture, folder: folder)
            _ = try await fixture.raw.sendMessage("hello?", in: open.conversationID, token: seller.tokens.accessToken)
            let refreshed = await open.logic.send(.refresh)
            #expect(refreshed.content?.messages.map(\.body) == ["hello?"])
            let list = await ConversationsLogicController(network: buyer.network).send(.load)
            #expect(list.content?.conversations.first?.unreadCount == 1)
            await open.connection.stop()
        }
    }

    @Test("a message sent while the screen is followed is in the state the send returns")
    func queuedWhileFollowed() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "una", password: "password123", displayName: "Una")
            let seller = try await fixture.raw.register("uri")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let outbox = try Outbox.testOutbox(in: folder, for: buyer)
            let module = ChatModule(session: buyer, outbox: outbox)
            // Once followed, the screen's pending list comes from the outbox's updates; the send's
            // own return races the update of the insert it made, and must not lose it.
            for round in 1...5 {
                let logic = module.messagesScreen(user: seller.user, product: nil).logic
                _ = await logic.send(.load)
                var states = await logic.states().makeAsyncIterator()
                _ = await states.next()  // the state at subscription
                _ = await states.next()  // published once the outbox is followed
                let sent = await logic.send(.send("round \(round)"))
                #expect(sent.content?.pending.map(\.body).last == "round \(round)", "round \(round): \(sent)")
                #expect(sent.content?.pending.count == round, "round \(round)")
            }
        }
    }

    @Test("a sent message moves from queued to the history by itself, exactly once")
    func outboxQueuedThenSent() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "rae", password: "password123", displayName: "Rae")
            let seller = try await fixture.raw.register("rob")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let open = try await Self.open(buyer, with: seller.user, fixture: fixture, folder: folder)
            let states = await open.logic.states()
            let queued = await open.logic.send(.send("I'll take it"))
            #expect(queued.content?.pending.map(\.body) == ["I'll take it"])
            #expect(queued.content?.pending.first?.state == .queued)
            #expect(queued.content?.messages.isEmpty == true)
            await open.outbox.start()
            let sent = await first(states, within: .seconds(10)) {
                $0.content?.messages.map(\.body) == ["I'll take it"] && $0.content?.pending.isEmpty == true
            }
            #expect(sent != nil, "no renderer asked for a refresh: the logic followed the outbox")
            let history = try await fixture.raw.get(
                "/v1/conversations/\(open.conversationID)/messages", token: seller.tokens.accessToken)
            #expect(try history.decode(Page<Message>.self).items.map(\.body) == ["I'll take it"])
            await open.outbox.stop()
            await open.connection.stop()
        }
    }

    @Test("an entry delivered after loading but before anyone watched does not stay pending")
    func deliveredBeforeWatching() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "uma", password: "password123", displayName: "Uma")
            let seller = try await fixture.raw.register("ugo")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let outbox = try Outbox.testOutbox(in: folder, for: buyer)
            // No socket: only the outbox can tell the screen what happened.
            let logic = ChatModule(session: buyer, outbox: outbox).messagesScreen(user: seller.user, product: nil).logic
            _ = await logic.send(.load)
            let queued = await logic.send(.send("Delivered while nobody looked"))
            #expect(queued.content?.pending.map(\.state) == [.queued])
            #expect(await outbox.flush())
            let states = await logic.states()
            let settled = await first(states, within: .seconds(10)) {
                $0.content?.pending.isEmpty == true
                    && $0.content?.messages.map(\.body) == ["Delivered while nobody looked"]
            }
            #expect(settled != nil)
        }
    }

    @Test("a message that arrived while the screen was not watched shows when a renderer joins an open socket")
    func arrivedBeforeWatching() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "vic", password: "password123", displayName: "Vic")
            let seller = try await fixture.raw.register("vel")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let open = try await Self.open(buyer, with: seller.user, fixture: fixture, folder: folder)
            // Another screen holds the shared socket open, as a conversations list would.
            let otherScreen = await open.connection.subscribe()
            var otherEvents = otherScreen.makeAsyncIterator()
            #expect(await otherEvents.next() == .connected)
            _ = try await fixture.raw.sendMessage(
                "sent before you looked", in: open.conversationID, token: seller.tokens.accessToken)
            #expect(
                await otherEvents.next() != nil, "the socket delivered the message to the screen that was listening")
            let states = await open.logic.states()
            let caughtUp = await first(states, within: .seconds(10)) {
                $0.content?.messages.map(\.body) == ["sent before you looked"]
            }
            #expect(caughtUp != nil)
            await open.connection.stop()
        }
    }

    /// The buyer's screen on a conversation with `seller` whose outbox posts reach the server but
    /// return only at `deliverer.answer()`, with the socket's events and the screen's states
    /// subscribed and the socket connected.
    struct AnswersHeldScreen {
        let logic: any MessagesLogic
        let outbox: Outbox
        let connection: LiveEventsConnection
        let deliverer: AnsweredLate
        let conversationID: String
        let events: AsyncStream<LiveConnectionEvent>
        let states: AsyncStream<ScreenState<MessagesContent>>

        /// The next live `message.created` event for a message that `matches`.
        func nextMessage(where matches: @escaping @Sendable (Message) -> Bool) async -> Message? {
            let event = await first(events, within: .seconds(10)) { event in
                if case .event(.messageCreated(let message)) = event { matches(message) } else { false }
            }
            guard case .event(.messageCreated(let message)) = event else { return nil }
            return message
        }

        /// Waits for `reply`, sent by the seller now, to show: the screen applies live events in
        /// order, so every event before it was applied too. Returns the state that shows it.
        func afterReply(_ reply: String, from seller: AuthResponse, fixture: SessionFixture) async throws
            -> ScreenState<MessagesContent>?
        {
            _ = try await fixture.raw.sendMessage(reply, in: conversationID, token: seller.tokens.accessToken)
            return await first(states, within: .seconds(10)) { $0.content?.messages.last?.body == reply }
        }

        func stop() async {
            await outbox.stop()
            await connection.stop()
        }
    }

    static func openWithAnswersHeld(_ buyer: UserSession, with seller: User, fixture: SessionFixture, folder: URL)
        async throws -> AnswersHeldScreen
    {
        let connection = LiveEventsConnection(baseURL: fixture.baseURL, network: buyer.network)
        let deliverer = AnsweredLate(real: BazaarOutboxDeliverer(network: buyer.network))
        let outbox = try Outbox(path: folder.appendingPathComponent("outbox.sqlite").path, deliverer: deliverer)
        let logic = ChatModule(session: buyer, outbox: outbox, connection: connection).messagesScreen(
            user: seller, product: nil
        ).logic
        let conversationID = try #require(await logic.send(.load).content?.conversation.id)
        let events = await connection.subscribe()
        let states = await logic.states()
        #expect(await within(.seconds(10), else: false) { await events.contains(.connected) }, "connected")
        return AnswersHeldScreen(
            logic: logic, outbox: outbox, connection: connection, deliverer: deliverer,
            conversationID: conversationID, events: events, states: states)
    }

    @Test(
        "the sender's own message shows once when its live event, or a refresh, finds it before the outbox hears the server's answer"
    )
    func ownLiveEventWaitsForTheOutbox() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "uma", password: "password123", displayName: "Uma")
            let seller = try await fixture.raw.register("ulf")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let screen = try await Self.openWithAnswersHeld(buyer, with: seller.user, fixture: fixture, folder: folder)
            await screen.logic.send(.send("does it come with the charger?"))
            await screen.outbox.start()
            // The server has stored it and pushed it to the sender's socket; the outbox is still waiting.
            #expect(await screen.nextMessage { $0.body == "does it come with the charger?" } != nil)
            // A refresh (as on reconnecting) finds it stored on the server: still shown once, as pending.
            let refreshed = await screen.logic.send(.refresh)
            #expect(refreshed.content?.messages.isEmpty == true, "not also shown as delivered after a refresh")
            #expect(refreshed.content?.pending.map(\.body) == ["does it come with the charger?"])
            let reply = try await screen.afterReply("yes, and the box", from: seller, fixture: fixture)
            #expect(reply?.content?.messages.map(\.body) == ["yes, and the box"], "not also shown as delivered")
            #expect(reply?.content?.pending.map(\.body) == ["does it come with the charger?"])
            screen.deliverer.answer()
            let settled = await first(screen.states, within: .seconds(10)) { $0.content?.pending.isEmpty == true }
            // The two often share a millisecond, and the fold puts a tie after what is shown: each once, in any order.
            #expect(
                settled?.content?.messages.map(\.body).sorted() == [
                    "does it come with the charger?", "yes, and the box",
                ],
                "folded once, by the outbox's delivery")
            await screen.stop()
        }
    }

    @Test(
        "the same words from the sender's other device, come while the entry waits for its answer, show beside it when it is delivered, with no refresh"
    )
    func sameTextFromAnotherDeviceShowsWithTheDelivery() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "ida", password: "password123", displayName: "Ida")
            let seller = try await fixture.raw.register("ivo")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let screen = try await Self.openWithAnswersHeld(buyer, with: seller.user, fixture: fixture, folder: folder)
            await screen.logic.send(.send("ok"))
            await screen.outbox.start()
            #expect(await screen.nextMessage { $0.body == "ok" } != nil, "the entry is on the server, unanswered")
            // The buyer's phone: another session, another message with the same words.
            let phone = try await fixture.raw.login("ida")
            let fromPhone = try await fixture.raw.sendMessage(
                "ok", in: screen.conversationID, token: phone.tokens.accessToken
            ).decode(Message.self)
            #expect(await screen.nextMessage { $0.id == fromPhone.id } != nil)
            let reply = try await screen.afterReply("deal", from: seller, fixture: fixture)
            #expect(reply?.content?.messages.map(\.body) == ["deal"], "both held while the entry may stand for either")
            #expect(reply?.content?.pending.map(\.body) == ["ok"])
            screen.deliverer.answer()
            let settled = await first(screen.states, within: .seconds(10)) { $0.content?.pending.isEmpty == true }
            let shown = settled?.content?.messages.filter { $0.body == "ok" }.map(\.id) ?? []
            #expect(shown.count == 2, "the outbox's message and the phone's, in the state that delivered the entry")
            #expect(shown.contains(fromPhone.id))
            let refreshed = await screen.logic.send(.refresh)
            #expect(refreshed.content?.messages.filter { $0.body == "ok" }.count == 2, "still once each")
            await screen.stop()
        }
    }
}

/// What opening and sending cost in requests, counted by the real server.
@Suite("MessagesLogicController's requests, counted by the server", .timeLimit(.minutes(2)))
struct MessagesRequestCountTests {
    @Test("opening a conversation by id asks for that conversation once, and never pages through the list")
    func openingByIdCostsOneGet() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "ria", password: "password123", displayName: "Ria")
            let seller = try await fixture.raw.register("rob")
            // More conversations than a list page, with the one to open the oldest: the last a list would reach.
            let target = try await fixture.raw.startConversation(with: buyer.userID, token: seller.tokens.accessToken)
            for index in 0..<22 {
                let other = try await fixture.raw.register("other\(index)")
                _ = try await fixture.raw.startConversation(with: buyer.userID, token: other.tokens.accessToken)
            }
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let outbox = try Outbox.testOutbox(in: folder, for: buyer)
            let list = try await fixture.serverRequestCount(APIRoutes.conversations)
            let single = try await fixture.serverRequestCount(APIRoutes.conversation)
            let screen = ChatModule(session: buyer, outbox: outbox).messagesScreen(conversationID: target.id)
            let opened = await screen.logic.send(.load)
            #expect(opened.content?.conversation.id == target.id)
            #expect(opened.content?.conversation.otherUser.id == seller.user.id)
            #expect(try await fixture.serverRequestCount(APIRoutes.conversation) - single == 1)
            #expect(try await fixture.serverRequestCount(APIRoutes.conversations) - list == 0)
            // Someone else's conversation, or none: not found, in one request too.
            let stranger = try await fixture.raw.register("sam")
            let theirs = try await fixture.raw.startConversation(
                with: seller.user.id, token: stranger.tokens.accessToken)
            let refused = await ChatModule(session: buyer, outbox: outbox).messagesScreen(conversationID: theirs.id)
                .logic.send(.load)
            #expect(refused.error?.kind == .notFound)
            #expect(try await fixture.serverRequestCount(APIRoutes.conversation) - single == 2)
        }
    }

    @Test(
        "a sent message enters the screen's state once, as the server answered it, without fetching the history again")
    func sentMessageEntersStateOnce() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "uma", password: "password123", displayName: "Uma")
            let seller = try await fixture.raw.register("udo")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let outbox = try Outbox.testOutbox(in: folder, for: buyer)
            let logic = ChatModule(session: buyer, outbox: outbox).messagesScreen(user: seller.user, product: nil).logic
            #expect(await logic.send(.load).content != nil)
            let states = await logic.states()
            let histories = try await fixture.serverRequestCount(APIRoutes.messages)
            await logic.send(.send("is it still for sale?"))
            _ = await outbox.flush()
            let shown = await first(states, within: .seconds(10)) { state in
                state.content?.pending.isEmpty == true
                    && state.content?.messages.contains { $0.body == "is it still for sale?" } == true
            }
            let content = try #require(shown?.content)
            #expect(content.messages.filter { $0.body == "is it still for sale?" }.count == 1)
            #expect(content.messages.last?.senderId == buyer.userID, "the message as the server stored it")
            #expect(
                try await fixture.serverRequestCount(APIRoutes.messages) - histories == 0,
                "no history page fetched again")
            #expect(
                await logic.send(.refresh).content?.messages.filter { $0.body == "is it still for sale?" }.count == 1)
        }
    }
}

/// The real deliverer, holding each post's answer back from the outbox (the server has the message
/// by then) until the test calls ``answer()``.
final class AnsweredLate: ForwardingDeliverer {
    let real: BazaarOutboxDeliverer
    private let answered: AsyncStream<Void>
    private let answering: AsyncStream<Void>.Continuation

    init(real: BazaarOutboxDeliverer) {
        self.real = real
        (answered, answering) = AsyncStream.makeStream()
    }

    /// Lets every post held now or later return.
    func answer() { answering.finish() }

    func post(_ body: String, attachmentIDs: [String], to conversationID: String, idempotencyKey: String)
        async throws(NetworkError) -> Message
    {
        let message = try await real.post(
            body, attachmentIDs: attachmentIDs, to: conversationID, idempotencyKey: idempotencyKey)
        for await _ in answered {}
        return message
    }
}

extension Outbox {
    /// A buyer's outbox in a test's folder, delivering through their controller.
    static func testOutbox(in folder: URL, for session: UserSession) throws -> Outbox {
        try Outbox(
            path: folder.appendingPathComponent("outbox.sqlite").path,
            deliverer: BazaarOutboxDeliverer(network: session.network))
    }
}
