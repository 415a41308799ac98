import Synchronization

/// The members of conversations a store has seen, so a send learns the recipient without a
/// read: a conversation's members never change and a conversation is never deleted, so an entry
/// is never stale, on any replica. Bounded: past `capacity` entries it starts again empty (a miss
/// costs one indexed read). Both engines keep one.
package final class ConversationMembersMemo: Sendable {
    private let entries = Mutex<[String: ConversationMembers]>([:])
    private let capacity: Int

    package init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// The members of the conversation, if seen.
    package func members(of conversationId: String) -> ConversationMembers? {
        entries.withLock { $0[conversationId] }
    }

    /// Remembers the members of a conversation.
    package func remember(_ members: ConversationMembers, of conversationId: String) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[conversationId] = members
        }
    }
}
