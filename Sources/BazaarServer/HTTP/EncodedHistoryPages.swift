import BazaarAPI
import BazaarStorage
import NIOCore
import Synchronization

/// The encoded JSON of each conversation's newest history page as last answered, reused while
/// the store gives the same page again.
///
/// The store answers an open chat's newest page from memory (``NewestMessagesMemo``), and
/// writing its 50 messages as JSON was then the largest part of the request: about 30% of a
/// history page's server CPU. The bytes depend on nothing but the page (its messages and where it
/// continues), so a page equal to the one last encoded gets the same bytes. Equality is checked
/// on what the store gave, after the store checked that the caller is a member: this type
/// decides no access. It is cheap when the store answered from memory: the memo hands out the
/// same array each time until the page changes, and arrays equal by identity compare in O(1);
/// any other page is compared message by message (and re-encoded when it differs).
final class EncodedHistoryPages: Sendable {
    private struct Key: Hashable {
        var conversationId: String
        var limit: Int
    }

    private struct Entry: Weighed {
        /// The page encoded: its messages (newest first) and the position it continues before.
        var items: [Message]
        var next: Int64?
        var body: ByteBuffer
        /// The bytes and the messages kept to compare the next page with: the messages share the
        /// memo's storage while the page is the same, but outlive a page that changed until this
        /// entry is replaced, so they are weighed too, as the JSON they would write (their text
        /// and a fixed part each).
        let size: Int

        init(items: [Message], next: Int64?, body: ByteBuffer) {
            self.items = items
            self.next = next
            self.body = body
            size = body.readableBytes + items.reduce(0) { $0 + $1.estimatedJSONSize }
        }
    }

    private let entries: Mutex<BoundedEntries<Key, Entry>>

    /// Holds at most `capacity` pages and `maximumBytes` bytes of them, each page weighed with the
    /// messages kept beside it (emptied when either is reached: a page is cheap to encode again);
    /// a page over a quarter of the bytes is never kept.
    init(capacity: Int = 4096, maximumBytes: Int = 16 << 20) {
        entries = Mutex(BoundedEntries(capacity: capacity, maximumBytes: maximumBytes))
    }

    /// How many pages are held now.
    var count: Int { entries.withLock { $0.count } }

    /// The JSON of `slice`, the newest page of `limit` messages of `conversationId`, as
    /// `Page(items:nextCursor:)` writes it: the bytes encoded before when the page is the same.
    func body(of slice: Slice<Message>, conversationId: String, limit: Int) -> ByteBuffer {
        let key = Key(conversationId: conversationId, limit: limit)
        if let entry = entries.withLock({ $0[key] }), entry.next == slice.next, entry.items == slice.items {
            return entry.body
        }
        let body = Self.encode(slice)
        let entry = Entry(items: slice.items, next: slice.next, body: body)
        entries.withLock { $0.store(entry, for: key) }
        return body
    }

    /// A history page's JSON, as the route answers it.
    static func encode(_ slice: Slice<Message>) -> ByteBuffer {
        let page = Page(items: slice.items, nextCursor: slice.next.map { Cursor.encode(.messages, seq: $0) })
        var writer = JSONWriter(capacity: page.estimatedJSONSize)
        page.write(to: &writer)
        return writer.buffer
    }
}
