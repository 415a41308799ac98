import Synchronization

/// Everyone a ``SQLiteStore`` knows to be party to a block (blocker or blocked), or to have
/// deleted their account, so the check of every message send (``StoredWrite/refuseIfBlocked(_:_:)``)
/// is a set lookup for the many users with nothing between them, instead of a read in each send's
/// write.
///
/// Exact in the direction that matters: the store adds both parties before it writes a block
/// (so no check can miss a committed block), and never removes anyone (a user whose blocks all
/// ended is asked of the database, as before). On SQLite one server process makes every block
/// of its file, so nothing is written that this memo does not hear of first.
final class BlockPartiesMemo: Sendable {
    private let parties: Mutex<Set<String>>

    /// A memo of `parties`, as read from the blocks and users tables when the store opened.
    init(parties: Set<String>) {
        self.parties = Mutex(parties)
    }

    /// Whether `userId` may be party to a block: `false` means they certainly are not.
    func mayBeParty(_ userId: String) -> Bool {
        parties.withLock { $0.contains(userId) }
    }

    /// Adds both parties of a block about to be written.
    func add(_ blocker: String, _ blocked: String) {
        parties.withLock { parties in
            parties.insert(blocker)
            parties.insert(blocked)
        }
    }
}
