import BazaarStorage
import Foundation
import HTTPTypes
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
    /// A stored response body, its validator, and the header fields of its 200 answer.
    struct Entry: Sendable, Weighed {
        /// The JSON body.
        let body: ByteBuffer
        /// Its strong ETag.
        let etag: String
        /// `ETag`, `Cache-Control` and the JSON `Content-Type`: made (and each value checked by
        /// HTTPTypes) once, when the entry is, rather than on each read served from it.
        let fields: HTTPFields

        /// An entry for `body`, answered with `cacheControl`.
        init(body: ByteBuffer, etag: String, cacheControl: String) {
            self.body = body
            self.etag = etag
            fields = [.eTag: etag, .cacheControl: cacheControl, .contentType: JSONResponse.contentType]
        }

        /// The bytes it holds.
        var size: Int { body.readableBytes + etag.utf8.count }
    }

    private struct State {
        var entries: BoundedEntries<String, Entry>
        var generation = 0
    }

    private let state: Mutex<State>

    /// A cache holding at most `capacity` bodies and `maximumBytes` bytes of them (emptied when
    /// either is reached; pages are cheap to rebuild). A body larger than a quarter of the bytes is
    /// served but never kept, so one heavy page cannot push out every other. Entries alone would not
    /// bound memory: a page of 100 products whose descriptions escape to 6 bytes a character is
    /// ~3 MB, and 1 024 filter variants of it would be gigabytes.
    init(capacity: Int = 1024, maximumBytes: Int = 32 << 20) {
        state = Mutex(State(entries: BoundedEntries(capacity: capacity, maximumBytes: maximumBytes)))
    }

    /// The bytes stored now (bodies and ETags).
    var storedBytes: Int { state.withLock { $0.entries.bytes } }

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
            state.entries.store(entry, for: key)
        }
    }

    /// Forgets everything (a product was added); reads in flight will not store what they fetched.
    func invalidate() {
        state.withLock { state in
            state.generation += 1
            state.entries.removeAll()
        }
    }
}
