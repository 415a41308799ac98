import BazaarStorage
import Foundation
import NIOCore
import Synchronization

/// Encoded bodies of public reads (product pages and products) with their ETags, so a repeated
/// read costs a dictionary lookup instead of a database query, JSON encoding and a SHA-256.
///
/// Products never change once listed; a new product changes which pages exist, so creating one
/// calls ``invalidate()``. A read that began before an invalidation is not stored afterwards (the
/// generation check), so a page read from the database just before a product was added can never
/// outlive it. The cache is per process; replicas sharing PostgreSQL each hear of a new product
/// through the ``LiveEventBus`` (and drop everything when their listener reconnects).
final class EncodedResponseCache: Sendable {
    /// A stored response body and its validator.
    struct Entry: Sendable {
        /// The JSON body.
        let body: ByteBuffer
        /// Its strong ETag.
        let etag: String
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var generation = 0
    }

    private let state = Mutex(State())
    private let capacity: Int

    /// A cache holding at most `capacity` bodies (emptied when full; pages are cheap to rebuild).
    init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    /// The current generation: read it before fetching, hand it to ``store(_:for:generation:)``.
    var generation: Int { state.withLock { $0.generation } }

    /// The entry for `key`, if stored.
    func entry(for key: String) -> Entry? {
        state.withLock { $0.entries[key] }
    }

    /// Stores `entry` unless the cache was invalidated since `generation` was read.
    func store(_ entry: Entry, for key: String, generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= capacity, state.entries[key] == nil {
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries[key] = entry
        }
    }

    /// Forgets everything (a product was added); reads in flight will not store what they fetched.
    func invalidate() {
        state.withLock { state in
            state.generation += 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }
}
