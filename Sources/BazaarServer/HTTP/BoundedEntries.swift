/// Something kept in a ``BoundedEntries``, which knows what it weighs.
protocol Weighed {
    /// The bytes it holds.
    var size: Int { get }
}

/// Entries under a bound on their count and on their bytes, emptied whole when a new one would
/// pass either: for caches of encoded bodies, which are cheap to make again, where keeping the
/// most used would cost a bookkeeping on every read that the emptying saves. An entry heavier than
/// a quarter of the bytes is never kept, so one large body cannot push out every other.
///
/// A value type: the cache that holds it decides the lock (and any other rule, such as a generation).
struct BoundedEntries<Key: Hashable & Sendable, Entry: Weighed & Sendable>: Sendable {
    /// The most entries kept.
    let capacity: Int
    /// The most bytes kept (the entries' ``Weighed/size``).
    let maximumBytes: Int
    private var entries: [Key: Entry] = [:]
    /// The bytes of the entries kept now.
    private(set) var bytes = 0

    /// An empty store of at most `capacity` entries and `maximumBytes` bytes.
    init(capacity: Int, maximumBytes: Int) {
        self.capacity = capacity
        self.maximumBytes = maximumBytes
    }

    /// How many entries are kept now.
    var count: Int { entries.count }

    /// The entry kept for `key`.
    subscript(key: Key) -> Entry? { entries[key] }

    /// Whether `entry` is light enough to be kept at all.
    func admits(_ entry: Entry) -> Bool { entry.size <= maximumBytes / 4 }

    /// Keeps `entry` for `key` (replacing what was kept for it), after emptying the store when
    /// it would pass a bound; does nothing for an entry it does not ``admits(_:)``.
    mutating func store(_ entry: Entry, for key: Key) {
        guard admits(entry) else { return }
        let replaced = entries[key]?.size
        bytes -= replaced ?? 0
        if (replaced == nil && entries.count >= capacity) || bytes + entry.size > maximumBytes { removeAll() }
        entries[key] = entry
        bytes += entry.size
    }

    /// Forgets every entry.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        bytes = 0
    }
}
