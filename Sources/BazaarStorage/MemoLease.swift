/// Whether a store's memory of what the database holds may be believed now: always (SQLite, where
/// one process makes every write and so hears of each), or, on PostgreSQL, only within a lease
/// that the replica's event listener renews while it hears every write the other replicas make.
///
/// A memo keeps its lease inside its own lock beside what it remembers, so "believed" and
/// "remembered" are read together. ``ActiveSessionMemo`` and ``NewestMessagesMemo`` hold one each.
package struct MemoLease: Sendable {
    /// Until when the memo may be believed; `nil` for always.
    private var trustedUntil: ContinuousClock.Instant?

    /// A lease that never lapses (`leased: false`), or one granted by nobody yet (`true`).
    package init(leased: Bool) {
        trustedUntil = leased ? ContinuousClock.Instant.now : nil
    }

    /// Whether the memo may be believed at `now` (read only for a leased memo).
    package func isTrusted(at now: @autoclosure () -> ContinuousClock.Instant) -> Bool {
        guard let trustedUntil else { return true }
        return now() < trustedUntil
    }

    /// Believes the memo until `instant`, or longer if already granted longer.
    package mutating func extend(until instant: ContinuousClock.Instant) {
        guard let current = trustedUntil else { return }
        trustedUntil = max(current, instant)
    }

    /// Stops believing a leased memo until the next ``extend(until:)``.
    package mutating func lapse() {
        if trustedUntil != nil { trustedUntil = .now }
    }
}
