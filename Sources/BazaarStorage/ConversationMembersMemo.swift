import BazaarStorage
import Synchronization

/// The members of conversations this store has seen, so a send learns the recipient without a
/// read: a conversation's members never change and a conversation is never deleted, so an entry
/// is never stale. Bounded: past `capacity` entries it starts again empty (a miss costs one
/// indexed read).
final class ConversationMembersMemo: Sendable {
    private let entries = Mutex<[String: ConversationMembers]>([:])
    private let capacity: Int

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// The members of the conversation, if seen.
    func members(of conversationId: String) -> ConversationMembers? {
        entries.withLock { $0[conversationId] }
    }

    /// Remembers the members of a conversation.
    func remember(_ members: ConversationMembers, of conversationId: String) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[conversationId] = members
        }
    }
}
