import Synchronization

/// Sessions a store has found active, so the check every authenticated request makes is a set
/// lookup instead of a read (on SQLite a hop to GRDB's reader, about 95 µs of a history page; on
/// PostgreSQL a round trip, about a third of one).
///
/// A session leaves the memo when its revocation commits, and a check that read "active" just
/// before that commit cannot put it back afterwards: each revocation moves the ``generation``,
/// and a check only remembers what it read when the generation has not moved since it started.
///
/// How soon a revocation arrives depends on who makes it:
/// - **SQLite**: one server process makes every revocation of its file and forgets the session
///   as the write returns, so the memo is exact.
/// - **PostgreSQL**: a revocation made by this replica is forgotten as its transaction returns;
///   one made by another replica arrives through this replica's event listener (the `revoked`
///   event written in the revoking transaction), a few milliseconds later. The memo is only
///   trusted while the listener vouches for it: ``trust(until:)`` holds a lease that the
///   listener renews after each successful ping (one a second), and ``suspend()`` empties the
///   memo the moment the listener loses its connection. So a revocation heard nowhere (a
///   listening connection that died without a word) is honoured at most one lease later, and
///   with no listener every check asks the database.
package final class ActiveSessionMemo: Sendable {
    /// The most sessions a store's memo remembers; when full, the memo starts again empty.
    package static let defaultCapacity = 100_000

    /// The most sessions this memo remembers.
    package let capacity: Int

    private struct State {
        var active: Set<String> = []
        var generation: UInt64 = 0
        var lease: MemoLease
    }

    private let state: Mutex<State>

    /// Makes an empty memo holding at most `capacity` sessions.
    ///
    /// - Parameter leased: `false` (SQLite) for a memo always believed; `true` (PostgreSQL) for
    ///   one believed only within a lease granted by ``trust(until:)``, none at first.
    package init(capacity: Int = defaultCapacity, leased: Bool = false) {
        self.capacity = capacity
        state = Mutex(State(lease: MemoLease(leased: leased)))
    }

    /// Whether `id` is known to be active (never while the memo is not trusted).
    package func isKnownActive(_ id: String) -> Bool {
        state.withLock { $0.active.contains(id) && $0.lease.isTrusted(at: .now) }
    }

    /// Moves with every revocation; read it before asking the database.
    package var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// Remembers `id` as active, unless a revocation happened since `generation` was read or
    /// the memo is not trusted now.
    package func remember(_ id: String, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation, state.lease.isTrusted(at: .now) else { return }
            if state.active.count >= capacity { state.active.removeAll(keepingCapacity: true) }
            state.active.insert(id)
        }
    }

    /// Forgets `id`: its revocation has committed.
    package func forget(_ id: String) {
        forget(CollectionOfOne(id))
    }

    /// Forgets every id of `ids`: their revocations have committed.
    package func forget(_ ids: some Sequence<String>) {
        state.withLock { state in
            state.generation &+= 1
            for id in ids { state.active.remove(id) }
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

    /// Forgets everything and stops believing the memo until the next ``trust(until:)``:
    /// revocations may now go unheard.
    package func suspend() {
        state.withLock { state in
            state.generation &+= 1
            state.active.removeAll()
            state.lease.lapse()
        }
    }
}
