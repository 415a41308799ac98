import BazaarAPI
import BazaarStorage
import Synchronization

/// Each conversation's newest page of messages as a ``SQLiteStore`` last read it, kept current by
/// the store's own sends, so the history page an open chat asks for is a dictionary lookup instead
/// of a read on GRDB's reader queue (most of a history page's 0.33 ms of server CPU).
///
/// Exact, not a cache with a lag: a message changes only when a moderator removes it (the store
/// then drops its conversation's pages, ``forget(conversationId:)``), and on SQLite one server
/// process makes every send to its file, so the store adds each message to the pages it holds as
/// soon as its transaction commits. A read that began before a send cannot store its page after
/// it: every send moves the ``generation``, and a read only stores what it fetched when the
/// generation has not moved since it started. A page answers only its two participants; anyone
/// else is asked of the database, as before. (PostgreSQL replicas send into each other's
/// conversations, so the PostgreSQL store reads every page.)
final class NewestMessagesMemo: Sendable {
    /// How many bytes of messages a store's memo holds at most (counted per page, as if no two
    /// pages shared a message); when a page would pass it, the memo starts again empty.
    static let defaultByteLimit = 32 << 20

    /// How many bytes of messages this memo holds at most.
    let byteLimit: Int

    /// One conversation's newest `limit` messages, newest first.
    struct Page: Sendable, Equatable {
        /// The conversation's two members, the only viewers this page answers.
        var members: [String]
        /// The messages, newest first, with their positions (`seq`), at most `limit` of them.
        var messages: [Message]
        /// The position of each message in ``messages``.
        var positions: [Int64]
        /// Whether older messages follow the last one.
        var hasOlder: Bool
        /// What ``messages`` weigh, by ``NewestMessagesMemo/weight(of:)``.
        var bytes: Int

        /// The page as the store answers it: the messages, and the last one's position when older ones follow.
        var slice: Slice<Message> {
            Slice(items: messages, next: hasOlder ? positions.last : nil)
        }
    }

    private struct State {
        /// Conversation id → page size → page.
        var pages: [String: [Int: Page]] = [:]
        /// The sum of every page's ``Page/bytes``.
        var bytes = 0
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Makes an empty memo holding at most `byteLimit` bytes of messages.
    init(byteLimit: Int = defaultByteLimit) {
        self.byteLimit = byteLimit
    }

    /// What one message weighs in the memo: its text and ids, and room for the rest.
    static func weight(of message: Message) -> Int {
        message.body.utf8.count + message.id.utf8.count + message.conversationId.utf8.count
            + message.senderId.utf8.count + 64
    }

    /// Moves with every send; read it before asking the database.
    var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// The newest `limit` messages of the conversation, if held and `viewerId` is one of its members.
    func slice(conversationId: String, limit: Int, viewerId: String) -> Slice<Message>? {
        state.withLock { state in
            guard let page = state.pages[conversationId]?[limit], page.members.contains(viewerId) else { return nil }
            return page.slice
        }
    }

    /// Remembers the newest page the database gave, unless a message was sent since `generation`
    /// was read; `slice` holds at most `limit` messages and `members` are the conversation's two.
    func remember(
        _ slice: Slice<Message>, positions: [Int64], conversationId: String, limit: Int, members: [String],
        readAt generation: UInt64
    ) {
        precondition(slice.items.count == positions.count, "one position per message")
        let page = Page(
            members: members, messages: slice.items, positions: positions, hasOlder: slice.next != nil,
            bytes: slice.items.reduce(0) { $0 + Self.weight(of: $1) })
        guard page.bytes <= byteLimit else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            let replaced = state.pages[conversationId]?[limit]?.bytes ?? 0
            if state.bytes - replaced + page.bytes > byteLimit {
                state.pages.removeAll(keepingCapacity: true)
                state.bytes = 0
            } else {
                state.bytes -= replaced
            }
            state.pages[conversationId, default: [:]][limit] = page
            state.bytes += page.bytes
        }
    }

    /// Adds a message whose transaction has committed to every page of its conversation held
    /// (in position order; the oldest drops off a full page), and moves the generation.
    func add(_ message: Message, at position: Int64) {
        state.withLock { state in
            state.generation &+= 1
            guard var pages = state.pages.removeValue(forKey: message.conversationId) else { return }
            for (limit, page) in pages {
                let changed = Self.adding(message, at: position, to: page, limit: limit)
                state.bytes += changed.bytes - page.bytes
                pages[limit] = changed
            }
            state.pages[message.conversationId] = pages
            // A page grows by at most one message per send; past the limit, start again.
            if state.bytes > byteLimit {
                state.pages.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
        }
    }

    /// Drops the pages held of a conversation one of whose messages changed (a moderator removed
    /// it), and moves the generation so a read begun before the change does not store its page.
    func forget(conversationId: String) {
        state.withLock { state in
            state.generation &+= 1
            guard let pages = state.pages.removeValue(forKey: conversationId) else { return }
            state.bytes -= pages.values.reduce(0) { $0 + $1.bytes }
        }
    }

    /// `page` with `message` in its place by position: already there, it stays once; older than
    /// every message of a full page, it belongs to an older page, which this one now says exists.
    private static func adding(_ message: Message, at position: Int64, to page: Page, limit: Int) -> Page {
        // Positions run newest (largest) first; find the first one not newer than the new message.
        let index = page.positions.firstIndex { $0 <= position } ?? page.positions.endIndex
        if index < page.positions.endIndex, page.positions[index] == position { return page }
        var page = page
        guard index < limit else {
            page.hasOlder = true
            return page
        }
        page.messages.insert(message, at: index)
        page.positions.insert(position, at: index)
        page.bytes += weight(of: message)
        if page.messages.count > limit {
            page.bytes -= weight(of: page.messages.removeLast())
            page.positions.removeLast()
            page.hasOlder = true
        }
        return page
    }
}
