import BazaarAPI
import Synchronization

/// Each conversation's newest page of messages as a store last read it, kept current by the
/// store's own writes, so the history page an open chat asks for is a dictionary lookup instead
/// of a read (on SQLite a hop to GRDB's reader queue, most of a page's 0.33 ms of server CPU; on
/// PostgreSQL a round trip and the decoding of its rows, 0.55-0.81 ms of the server's CPU).
///
/// A page changes when a message is added to its conversation, a moderator removes one of its
/// messages, or an account's erasure takes the photos off its sender's messages. A read that
/// began before such a change cannot store its page after it: a read takes its conversation's
/// ``ReadMark`` before asking the database, every change to a conversation moves that
/// conversation's mark (and forgetting everything moves every mark), and a read only stores what
/// it fetched when its mark has not moved. A page answers only its two participants; anyone else
/// is asked of the database.
///
/// The marks are per conversation, not one for the whole memo: with one, every send anywhere
/// moved it, and under a load of sends a read slower than the gap between two commits (most of
/// them, when the server is busy) never stored its page, so pages were read from the database
/// again and again (the load run's mix on SQLite, 2026-11-28).
///
/// How soon a change arrives depends on who makes it:
/// - **SQLite**: one server process makes every write to its file; the store adds each message
///   to the pages it holds as its transaction commits (``add(_:at:)``) and drops the pages of a
///   conversation whose messages changed otherwise (``forget(conversationIds:)``): exact.
/// - **PostgreSQL**: this replica's writes update the memo the same way as they commit. A change
///   made by another replica arrives through this replica's event listener (a `history` event
///   written in the changing transaction, read before that transaction's live frames), which
///   drops the conversation's pages: anyone told of a message by this replica's sockets finds it
///   in this replica's history. The memo is believed only within the listener's lease
///   (``MemoLease``: ``trust(until:)`` after each ping that succeeds, ``suspend()`` the moment the
///   listener loses its connection), so with no listener every page is read from the database.
package final class NewestMessagesMemo: Sendable {
    /// How many bytes of messages a store's memo holds at most (counted per page, as if no two
    /// pages shared a message); when a page would pass it, the memo starts again empty.
    package static let defaultByteLimit = 32 << 20

    /// How many bytes of messages this memo holds at most.
    package let byteLimit: Int

    /// One conversation's newest `limit` messages, newest first.
    package struct Page: Sendable, Equatable {
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

    /// What a read of one conversation's newest page saw of the memo's changes when it began
    /// (``readMark(for:)``): it may store its page only if the mark has not moved since.
    package struct ReadMark: Sendable, Equatable {
        /// Moves when every page is forgotten.
        fileprivate var epoch: UInt64
        /// The conversation's stripe of ``State/changes``.
        fileprivate var stripe: Int
        /// That stripe's count of changes.
        fileprivate var changes: UInt64
    }

    /// How many stripes the conversations' change counts are spread over: a fixed number, so
    /// the counts take no memory per conversation; two conversations sharing a stripe only
    /// make a read of one give up storing its page when the other changes.
    static let stripes = 1024

    private struct State {
        /// Conversation id → page size → page.
        var pages: [String: [Int: Page]] = [:]
        /// The sum of every page's ``Page/bytes``.
        var bytes = 0
        /// Moves when every page is forgotten (``forgetAll()``, ``suspend()``).
        var epoch: UInt64 = 0
        /// Changes per stripe of conversations (``NewestMessagesMemo/stripe(of:)``).
        var changes = [UInt64](repeating: 0, count: NewestMessagesMemo.stripes)
        var lease: MemoLease
        /// Conversations with a write of this store under way (how many), whose pages are not
        /// answered until it has told the memo how it ended.
        var writing: [String: Int] = [:]
        /// Writes under way whose conversations are not known before they end: no page is
        /// answered while one is.
        var writingUnknown = 0

        /// Whether the page of `conversationId` may be answered now.
        func mayAnswer(_ conversationId: String) -> Bool {
            writingUnknown == 0 && writing[conversationId] == nil && lease.isTrusted(at: .now)
        }

        /// The mark a read of `conversationId` takes now.
        func mark(for conversationId: String) -> ReadMark {
            let stripe = NewestMessagesMemo.stripe(of: conversationId)
            return ReadMark(epoch: epoch, stripe: stripe, changes: changes[stripe])
        }

        /// Moves the mark of `conversationId` (and of those sharing its stripe).
        mutating func changed(_ conversationId: String) {
            changes[NewestMessagesMemo.stripe(of: conversationId)] &+= 1
        }

        /// Drops every page (what they weigh with them).
        mutating func empty() {
            pages.removeAll(keepingCapacity: true)
            bytes = 0
        }
    }

    private let state: Mutex<State>

    /// Makes an empty memo holding at most `byteLimit` bytes of messages.
    ///
    /// - Parameter leased: `false` (SQLite) for a memo always believed; `true` (PostgreSQL) for
    ///   one believed only within a lease granted by ``trust(until:)``, none at first.
    package init(byteLimit: Int = defaultByteLimit, leased: Bool = false) {
        self.byteLimit = byteLimit
        state = Mutex(State(lease: MemoLease(leased: leased)))
    }

    /// What one message weighs in the memo: its text and ids, and room for the rest.
    package static func weight(of message: Message) -> Int {
        message.body.utf8.count + message.id.utf8.count + message.conversationId.utf8.count
            + message.senderId.utf8.count + 64
    }

    /// The stripe of `conversationId`'s change count (by its hash, fixed for the process).
    private static func stripe(of conversationId: String) -> Int {
        conversationId.hashValue & (stripes - 1)
    }

    /// The mark to take before asking the database for the newest page of `conversationId`, and
    /// to hand to ``remember(_:positions:conversationId:limit:members:readAt:)`` with what it read.
    package func readMark(for conversationId: String) -> ReadMark {
        state.withLock { $0.mark(for: conversationId) }
    }

    /// The newest `limit` messages of the conversation, if held, believed now and `viewerId` is one
    /// of its members.
    package func slice(conversationId: String, limit: Int, viewerId: String) -> Slice<Message>? {
        state.withLock { state in
            guard let page = state.pages[conversationId]?[limit], page.members.contains(viewerId),
                state.mayAnswer(conversationId)
            else { return nil }
            return page.slice
        }
    }

    /// Remembers the newest page the database gave, unless the conversation changed since `mark`
    /// was taken (``readMark(for:)``) or the memo is not believed now; `slice` holds at most `limit` messages and `members`
    /// are the conversation's two.
    package func remember(
        _ slice: Slice<Message>, positions: [Int64], conversationId: String, limit: Int, members: [String],
        readAt mark: ReadMark
    ) {
        precondition(slice.items.count == positions.count, "one position per message")
        let page = Page(
            members: members, messages: slice.items, positions: positions, hasOlder: slice.next != nil,
            bytes: slice.items.reduce(0) { $0 + Self.weight(of: $1) })
        guard page.bytes <= byteLimit else { return }
        state.withLock { state in
            guard state.mark(for: conversationId) == mark, state.lease.isTrusted(at: .now) else { return }
            let replaced = state.pages[conversationId]?[limit]?.bytes ?? 0
            if state.bytes - replaced + page.bytes > byteLimit {
                state.empty()
            } else {
                state.bytes -= replaced
            }
            state.pages[conversationId, default: [:]][limit] = page
            state.bytes += page.bytes
        }
    }

    /// Adds a message whose transaction has committed to every page of its conversation held
    /// (in position order; the oldest drops off a full page), and moves the conversation's mark.
    package func add(_ message: Message, at position: Int64) {
        state.withLock { state in
            state.changed(message.conversationId)
            guard var pages = state.pages.removeValue(forKey: message.conversationId) else { return }
            for (limit, page) in pages {
                let changed = Self.adding(message, at: position, to: page, limit: limit)
                state.bytes += changed.bytes - page.bytes
                pages[limit] = changed
            }
            state.pages[message.conversationId] = pages
            // A page grows by at most one message per send; past the limit, start again.
            if state.bytes > byteLimit { state.empty() }
        }
    }

    /// Drops the pages held of conversations one of whose messages changed otherwise than by a
    /// message added (a moderator removed it, an erasure took its photos, another replica added
    /// one), and moves their marks so a read begun before the change does not store its page.
    package func forget(conversationIds: some Sequence<String>) {
        state.withLock { state in
            for conversationId in conversationIds {
                state.changed(conversationId)
                guard let pages = state.pages.removeValue(forKey: conversationId) else { continue }
                state.bytes -= pages.values.reduce(0) { $0 + $1.bytes }
            }
        }
    }

    /// Drops every page and moves every mark: for a write whose outcome is unknown (its
    /// statement failed after it may have committed), of which no event will tell this replica.
    package func forgetAll() {
        state.withLock { state in
            state.epoch &+= 1
            state.empty()
        }
    }

    /// A write of this store to the messages of `conversationIds` (and, when `othersUnknown`, of
    /// conversations it cannot name before it ends, such as a removal's) begins: their pages are
    /// not answered until ``endWriting(_:othersUnknown:)``, called once the write has told the memo
    /// how it ended (``add(_:at:)``, ``forget(conversationIds:)`` or ``forgetAll()``).
    ///
    /// On PostgreSQL a write commits, and its live events can reach this replica's sockets through
    /// the listener, before its answer reaches the store; a client told by a socket must not find
    /// the page without the message in that gap.
    package func beginWriting(_ conversationIds: [String], othersUnknown: Bool) {
        state.withLock { state in
            for conversationId in conversationIds { state.writing[conversationId, default: 0] += 1 }
            if othersUnknown { state.writingUnknown += 1 }
        }
    }

    /// The write begun by ``beginWriting(_:othersUnknown:)`` with the same arguments has ended.
    package func endWriting(_ conversationIds: [String], othersUnknown: Bool) {
        state.withLock { state in
            for conversationId in conversationIds {
                let left = (state.writing[conversationId] ?? 1) - 1
                state.writing[conversationId] = left > 0 ? left : nil
            }
            if othersUnknown { state.writingUnknown = max(0, state.writingUnknown - 1) }
        }
    }

    /// Runs `write`, a write of this store to the messages of `conversationIds` (and of others it
    /// cannot name, when `othersUnknown`) that tells the memo what it changed before it returns,
    /// between ``beginWriting(_:othersUnknown:)`` and ``endWriting(_:othersUnknown:)``. When it
    /// throws, whether it committed is not known here, and no event of this store's own will say
    /// (the listener skips those): every page is forgotten.
    package func whileWriting<Result>(
        _ conversationIds: [String], othersUnknown: Bool, _ write: () async throws -> Result
    ) async throws -> Result {
        guard !conversationIds.isEmpty || othersUnknown else { return try await write() }
        beginWriting(conversationIds, othersUnknown: othersUnknown)
        defer { endWriting(conversationIds, othersUnknown: othersUnknown) }
        do {
            return try await write()
        } catch {
            forgetAll()
            throw error
        }
    }

    /// Believes the memo until `instant` (a leased memo's listener renews this while it hears).
    package func trust(until instant: ContinuousClock.Instant) {
        state.withLock { $0.lease.extend(until: instant) }
    }

    /// Whether the memo is believed now: always when not leased, else while within its lease.
    package var isTrusted: Bool {
        state.withLock { $0.lease.isTrusted(at: .now) }
    }

    /// Forgets every page and stops believing the memo until the next ``trust(until:)``: changes
    /// made elsewhere may now go unheard.
    package func suspend() {
        state.withLock { state in
            state.epoch &+= 1
            state.empty()
            state.lease.lapse()
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
