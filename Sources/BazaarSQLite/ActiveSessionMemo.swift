import BazaarStorage
import Synchronization

/// Sessions a ``SQLiteStore`` has found active, so the check every authenticated request makes
/// is a set lookup instead of a read on GRDB's reader queue (about 95 µs of a history page).
///
/// Exact, not a cache with a lag: on SQLite one server process makes every revocation of its
/// file, and the store drops a session from the memo as soon as its revocation commits. A check
/// that read "active" just before that commit cannot put the session back afterwards, because
/// each revocation moves the ``generation`` and a check only remembers what it read when the
/// generation has not moved since it started. (PostgreSQL replicas revoke each other's sessions,
/// so the PostgreSQL store asks the database every time.)
final class ActiveSessionMemo: Sendable {
    /// The most sessions a store's memo remembers; when full, the memo starts again empty.
    static let defaultCapacity = 100_000

    /// The most sessions this memo remembers.
    let capacity: Int

    private struct State {
        var active: Set<String> = []
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Makes an empty memo holding at most `capacity` sessions.
    init(capacity: Int = defaultCapacity) {
        self.capacity = capacity
    }

    /// Whether `id` is known to be active.
    func isKnownActive(_ id: String) -> Bool {
        state.withLock { $0.active.contains(id) }
    }

    /// Moves with every revocation; read it before asking the database.
    var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// Remembers `id` as active, unless a revocation happened since `generation` was read.
    func remember(_ id: String, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.active.count >= capacity { state.active.removeAll(keepingCapacity: true) }
            state.active.insert(id)
        }
    }

    /// Forgets `id`: its revocation has committed.
    func forget(_ id: String) {
        state.withLock { state in
            state.generation &+= 1
            state.active.remove(id)
        }
    }
}
