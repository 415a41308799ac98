import BazaarAPI
import Dependencies
import Networking
import Session

/// One conversation: its history a page at a time (oldest first on screen), sending through the
/// outbox, and read receipts. While the screen is watched it also follows the conversation: live
/// messages are folded in once each and marked read, a reconnection catches up, and each outbox
/// entry for the conversation moves from queued to sent (or failed) in the states.
public actor MessagesLogicController: MessagesLogic {
    /// Which conversation to open.
    public enum Target: Sendable {
        /// A conversation known by id.
        case conversation(id: String)
        /// The conversation with a user about a product (found or started on load).
        case user(id: String, productID: String?)
    }

    private let network: AuthenticatedNetworkController
    private let outbox: Outbox
    private let connection: (any LiveEventSource)?
    private let target: Target
    private let pageSize: Int
    private let broadcast = StateBroadcast<ScreenState<MessagesContent>>(.loading)
    private var content: MessagesContent?
    private var olderCursor: String?
    /// While followed: every unsent outbox entry, kept by one task from a snapshot and the ordered
    /// updates after it, so a read that raced an update never puts a delivered entry back.
    private var unsent: [OutboxEntry]?
    /// While followed: the ids ``unsent`` has heard of (in the snapshot or an update). For any
    /// other id, the entry `enqueue` returned is the newest news, its update still on the way.
    private var tracked: Set<String> = []
    /// The viewer's own messages, come live or in a refreshed page, that a pending entry may stand
    /// for (``MessagesContent/awaitsOutboxDelivery(_:)``), held until no pending entry has their
    /// text and then folded. The outbox's own message folds as the same id, once; a same-text
    /// message from the viewer's other device then shows with it instead of at the next refresh.
    private var held: [Message] = []
    private var following = 0

    /// Makes the logic for `target`, sending through `outbox` and listening on `connection`.
    public init(
        network: AuthenticatedNetworkController, outbox: Outbox, connection: (any LiveEventSource)? = nil,
        target: Target, pageSize: Int = 50
    ) {
        self.network = network
        self.outbox = outbox
        self.connection = connection
        self.target = target
        self.pageSize = pageSize
        broadcast.whileWatched { [weak self] in await self?.follow() }
    }

    /// The screen's states from now on; while iterated, the conversation is followed live.
    public func states() -> AsyncStream<ScreenState<MessagesContent>> { broadcast.subscribe(keeping: self) }

    /// Performs `action` and publishes the state it leads to.
    @discardableResult
    public func send(_ action: MessagesAction) async -> ScreenState<MessagesContent> {
        let state: ScreenState<MessagesContent>
        switch action {
        case .load: state = await load()
        case .loadOlder: state = await loadOlder()
        case .send(let body): state = await enqueue(body, photos: [])
        case .sendPhotos(let photos, let text): state = await enqueue(text, photos: photos)
        case .markRead: state = await markRead()
        case .refresh: state = await refresh()
        }
        return broadcast.publish(state)
    }

    // MARK: - Actions

    private func load() async -> ScreenState<MessagesContent> {
        do throws(NetworkError) {
            guard let conversation = try await openConversation() else {
                return .failed(ScreenError(kind: .notFound, message: "No conversation has that id."))
            }
            // An entry whose request went out but whose answer was never recorded (the app stopped,
            // or the answer was lost, and the queue waits out its backoff) may be in the history
            // already. Delivered first, it comes back as the server's replay and leaves the pending
            // list, so it is not shown twice; matching texts instead would also hide an older message
            // that says the same. A pass already delivering answers it within its round trip (and
            // ``apply(_:)`` folds that answer): opening the screen does not wait behind an upload.
            if await pending(for: conversation.id).contains(where: \.mayHaveReachedServer),
                await !outbox.isDelivering
            {
                _ = await outbox.flush()
            }
            let page = try await network.request(
                BazaarEndpoints.messages(conversationID: conversation.id, limit: pageSize))
            olderCursor = page.nextCursor
            held = []
            content = MessagesContent(
                conversation: conversation, messages: page.items.reversed(),
                pending: await pending(for: conversation.id),
                hasOlder: page.nextCursor != nil)
            return present()
        } catch {
            return .failed(ScreenError(error))
        }
    }

    private func loadOlder() async -> ScreenState<MessagesContent> {
        guard var current = content else { return await load() }
        guard let cursor = olderCursor else { return present() }
        do throws(NetworkError) {
            let page = try await network.request(
                BazaarEndpoints.messages(conversationID: current.conversation.id, before: cursor, limit: pageSize))
            current.messages = page.items.reversed() + current.messages
            current.hasOlder = page.nextCursor != nil
            olderCursor = page.nextCursor
            content = current
            return present()
        } catch {
            return .failed(ScreenError(error))
        }
    }

    private func enqueue(_ body: String, photos: [PhotoToSend]) async -> ScreenState<MessagesContent> {
        guard content != nil else { return await load() }
        guard let conversationID = content?.conversation.id else { return present() }
        do {
            let entry = try await outbox.enqueue(body, photos: photos, to: .conversation(id: conversationID))
            // Known to the follower: its list is at least as new (the worker may have delivered it
            // already). Not yet known: the snapshot predates the insert and the update is queued.
            if var followed = unsent, tracked.insert(entry.id).inserted {
                followed.append(entry)
                unsent = followed
            }
            // Read back rather than appended: the worker may have delivered it already.
            content?.pending = await pending(for: conversationID)
            return present()
        } catch let problem as MessageDraftError {
            return .failed(ScreenError(kind: .invalidInput, message: problem.description))
        } catch {
            return .failed(ScreenError(kind: .other, message: "The message could not be saved: \(error)"))
        }
    }

    private func markRead() async -> ScreenState<MessagesContent> {
        guard let current = content, let last = current.messages.last else { return present() }
        do throws(NetworkError) {
            _ = try await network.request(
                BazaarEndpoints.markRead(conversationID: current.conversation.id, upTo: last.id))
            content?.conversation.unreadCount = 0
            return present()
        } catch {
            return .failed(ScreenError(error))
        }
    }

    private func refresh() async -> ScreenState<MessagesContent> {
        guard let current = content else { return await load() }
        do throws(NetworkError) {
            let page = try await network.request(
                BazaarEndpoints.messages(conversationID: current.conversation.id, limit: pageSize))
            // The pending list first: a message its entry still stands for is held for the outbox's
            // fold, as when it arrives live (a refresh on reconnecting can come between the server
            // storing it and the outbox hearing so), and what the list no longer stands for is let go.
            content?.pending = await pending(for: current.conversation.id)
            releaseHeld()
            for message in page.items.reversed() { foldOrHold(message) }
            return present()
        } catch {
            return .failed(ScreenError(error))
        }
    }

    // MARK: - Following the conversation while watched

    /// Folds live events and outbox changes into the states until the last watcher leaves.
    private func follow() async {
        following += 1
        let generation = following
        await withTaskGroup(of: Void.self) { group in
            if let connection {
                let events = await connection.subscribe()
                group.addTask { [weak self] in
                    for await event in events { await self?.apply(event) }
                }
            }
            let updates = await outbox.updates()
            group.addTask { [weak self] in
                // Subscribed first, then the snapshot: an update from before it is applied after it,
                // and each entry's last update comes last.
                await self?.trackOutbox()
                for await entry in updates { await self?.apply(entry) }
            }
            await group.waitForAll()
        }
        if generation == following {
            unsent = nil
            tracked = []
        }
    }

    private func apply(_ event: LiveConnectionEvent) async {
        guard let current = content else { return }
        switch event {
        case .connected:
            broadcast.publish(await refresh())
            await markIncomingRead()
        case .event(.messageCreated(let message)) where message.conversationId == current.conversation.id:
            guard foldOrHold(message) else { return }
            broadcast.publish(present())
            if message.senderId == current.conversation.otherUser.id { await markIncomingRead() }
        case .event, .disconnected:
            return
        }
    }

    /// Starts keeping ``unsent`` from the outbox as it is now; fetches the history when an entry
    /// shown as pending was delivered while nobody followed.
    private func trackOutbox() async {
        let stored = ((try? await outbox.entries()) ?? []).filter { !$0.state.isSent }
        unsent = stored
        tracked.formUnion(stored.map(\.id))
        guard let current = content else { return }
        let delivered = current.pending.contains { shown in !stored.contains { $0.id == shown.id } }
        content?.pending = pending(in: stored, for: current.conversation.id)
        releaseHeld()
        broadcast.publish(delivered ? await refresh() : present())
    }

    private func apply(_ entry: OutboxEntry) async {
        if var followed = unsent {
            followed.removeAll { $0.id == entry.id }
            if !entry.state.isSent { followed.append(entry) }
            unsent = followed.sorted { $0.createdAt < $1.createdAt }
            tracked.insert(entry.id)
        }
        guard let current = content, case .conversation(let id) = entry.recipient, id == current.conversation.id else {
            return
        }
        content?.pending = await pending(for: id)
        // The message is on the server now: it takes its place in the history as the server
        // answered it (folded once, however many ways it also arrives), in the same state change
        // that takes it out of the pending list.
        if case .sent = entry.state, let message = entry.message { fold(message) }
        releaseHeld()
        broadcast.publish(present())
        if case .sent = entry.state, entry.message == nil { broadcast.publish(await refresh()) }
    }

    /// Marks read while the screen is open, when the newest message is the other person's.
    private func markIncomingRead() async {
        guard broadcast.subscriberCount > 0, let current = content,
            current.conversation.unreadCount > 0
                || current.messages.last?.senderId == current.conversation.otherUser.id
        else { return }
        broadcast.publish(await markRead())
    }

    /// Folds `message`, or holds it while a pending entry may stand for it; returns whether it was
    /// folded and new.
    @discardableResult
    private func foldOrHold(_ message: Message) -> Bool {
        guard let current = content else { return false }
        guard current.awaitsOutboxDelivery(message) else { return fold(message) }
        if !held.contains(where: { $0.id == message.id }) { held.append(message) }
        return false
    }

    /// Folds the held messages that no pending entry stands for any more (its answer came, or it
    /// failed): call after every change to the pending list.
    private func releaseHeld() {
        guard let current = content, !held.isEmpty else { return }
        let released = held.filter { !current.awaitsOutboxDelivery($0) }
        held.removeAll { !current.awaitsOutboxDelivery($0) }
        for message in released { fold(message) }
    }

    /// Adds `message` in order unless it is already shown; returns whether it was new.
    @discardableResult
    private func fold(_ message: Message) -> Bool {
        guard var current = content, !current.messages.contains(where: { $0.id == message.id }) else { return false }
        let index = current.messages.lastIndex { $0.createdAt <= message.createdAt }.map { $0 + 1 } ?? 0
        current.messages.insert(message, at: index)
        if current.conversation.lastMessage.map({ $0.createdAt <= message.createdAt }) ?? true {
            current.conversation.lastMessage = message
        }
        content = current
        return true
    }

    /// The conversation to show, or `nil` when the id is not one of the user's conversations.
    private func openConversation() async throws(NetworkError) -> Conversation? {
        switch target {
        case .conversation(let id):
            do {
                return try await network.request(BazaarEndpoints.conversation(id: id))
            } catch  where error.statusCode == 404 {
                return nil
            }
        case .user(let userID, let productID):
            return try await network.request(
                BazaarEndpoints.startConversation(StartConversationRequest(userId: userID, productId: productID)))
        }
    }

    /// The conversation's unsent entries: the followed ones while followed, else read from disk.
    private func pending(for conversationID: String) async -> [OutboxEntry] {
        if let unsent { return pending(in: unsent, for: conversationID) }
        let stored = (try? await outbox.entries()) ?? []
        // Following may have started during the read; its list is then the newer one.
        return pending(in: unsent ?? stored, for: conversationID)
    }

    private func pending(in entries: [OutboxEntry], for conversationID: String) -> [OutboxEntry] {
        entries.filter { $0.recipient == .conversation(id: conversationID) && !$0.state.isSent }
    }

    private func present() -> ScreenState<MessagesContent> {
        guard let content else { return .loading }
        return .presenting(content)
    }
}

extension OutboxEntry {
    /// Whether the server may hold the message although the outbox has not heard so: an attempt
    /// went out (the count is saved before each one) and no answer settled it. An entry never
    /// attempted cannot be there, and a failed one was refused.
    var mayHaveReachedServer: Bool {
        attempts > 0 && !state.isFinal
    }
}

extension OutboxState {
    /// Whether the message reached the server.
    var isSent: Bool {
        if case .sent = self { true } else { false }
    }
}
