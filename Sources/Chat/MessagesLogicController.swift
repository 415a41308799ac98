import BazaarAPI
import Dependencies
import Networking
import Session

/// One conversation: its history a page at a time (oldest first on screen), sending through the
/// outbox, and read receipts.
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
    private let connection: LiveEventsConnection?
    private let target: Target
    private let pageSize: Int
    private var content: MessagesContent?
    private var olderCursor: String?

    /// Makes the logic for `target`, sending through `outbox` and listening on `connection`.
    public init(
        network: AuthenticatedNetworkController, outbox: Outbox, connection: LiveEventsConnection? = nil,
        target: Target, pageSize: Int = 50
    ) {
        self.network = network
        self.outbox = outbox
        self.connection = connection
        self.target = target
        self.pageSize = pageSize
    }

    /// Opens the conversation (starting it if needed) and loads its newest page.
    public func load() async -> ScreenState<MessagesContent> {
        do throws(NetworkError) {
            guard let conversation = try await openConversation() else {
                return .failed(ScreenError(kind: .notFound, message: "No conversation has that id."))
            }
            let page = try await network.request(BazaarEndpoints.messages(conversationID: conversation.id, limit: pageSize))
            olderCursor = page.nextCursor
            content = MessagesContent(
                conversation: conversation, messages: page.items.reversed(), pending: await pending(for: conversation.id),
                hasOlder: page.nextCursor != nil)
            return present()
        } catch {
            return .failed(ScreenError(error))
        }
    }

    /// Adds the page before the earliest message shown.
    public func loadOlder() async -> ScreenState<MessagesContent> {
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

    /// Queues the message in the outbox and shows it as pending; delivery happens in the background.
    public func send(_ body: String) async -> ScreenState<MessagesContent> {
        guard var current = content else { return await load() }
        do {
            let entry = try await outbox.enqueue(body, to: .conversation(id: current.conversation.id))
            current.pending.append(entry)
            content = current
            return present()
        } catch {
            return .failed(ScreenError(kind: .other, message: "The message could not be saved: \(error)"))
        }
    }

    /// Marks everything shown as read.
    public func markRead() async -> ScreenState<MessagesContent> {
        guard var current = content, let last = current.messages.last else { return present() }
        do throws(NetworkError) {
            _ = try await network.request(BazaarEndpoints.markRead(conversationID: current.conversation.id, upTo: last.id))
            current.conversation.unreadCount = 0
            content = current
            return present()
        } catch {
            return .failed(ScreenError(error))
        }
    }

    /// Fetches messages newer than the last one shown and folds delivered outbox entries in.
    public func refresh() async -> ScreenState<MessagesContent> {
        guard var current = content else { return await load() }
        do throws(NetworkError) {
            let page = try await network.request(
                BazaarEndpoints.messages(conversationID: current.conversation.id, limit: pageSize))
            let known = Set(current.messages.map(\.id))
            current.messages += page.items.reversed().filter { !known.contains($0.id) }
            current.pending = await pending(for: current.conversation.id)
            content = current
            return present()
        } catch {
            return .failed(ScreenError(error))
        }
    }

    /// The screen's states as live events arrive; a reconnection triggers a catch-up ``refresh()``.
    public func live() async -> AsyncStream<ScreenState<MessagesContent>> {
        let (stream, continuation) = AsyncStream.makeStream(of: ScreenState<MessagesContent>.self)
        guard let connection else {
            continuation.finish()
            return stream
        }
        let events = await connection.subscribe()
        let task = Task {
            for await event in events {
                if let state = await self.apply(event) { continuation.yield(state) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The next state for a live event, or `nil` when it changes nothing on this screen.
    private func apply(_ event: LiveConnectionEvent) async -> ScreenState<MessagesContent>? {
        guard var current = content else { return nil }
        switch event {
        case .connected:
            return await refresh()
        case .event(.messageCreated(let message)) where message.conversationId == current.conversation.id:
            guard !current.messages.contains(where: { $0.id == message.id }) else { return nil }
            current.messages.append(message)
            current.conversation.lastMessage = message
            current.pending = await pending(for: current.conversation.id)
            content = current
            return present()
        case .event, .disconnected:
            return nil
        }
    }

    /// The conversation to show, or `nil` when the id is not one of the user's conversations.
    private func openConversation() async throws(NetworkError) -> Conversation? {
        switch target {
        case .conversation(let id):
            // The list endpoint is the only read of one conversation's summary; find it there.
            var cursor: String?
            repeat {
                let page = try await network.request(BazaarEndpoints.conversations(cursor: cursor))
                if let match = page.items.first(where: { $0.id == id }) { return match }
                cursor = page.nextCursor
            } while cursor != nil
            return nil
        case .user(let userID, let productID):
            return try await network.request(
                BazaarEndpoints.startConversation(StartConversationRequest(userId: userID, productId: productID)))
        }
    }

    private func pending(for conversationID: String) async -> [OutboxEntry] {
        let entries = (try? await outbox.entries()) ?? []
        return entries.filter { $0.recipient == .conversation(id: conversationID) && !$0.state.isSent }
    }

    private func present() -> ScreenState<MessagesContent> {
        guard let content else { return .loading }
        return .presenting(content)
    }
}

extension OutboxState {
    /// Whether the message reached the server.
    var isSent: Bool {
        if case .sent = self { true } else { false }
    }
}
