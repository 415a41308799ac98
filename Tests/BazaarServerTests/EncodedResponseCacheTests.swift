import NIOCore
import Testing

@testable import BazaarServer

@Suite("EncodedResponseCache")
struct EncodedResponseCacheTests {
    private func entry(_ text: String) -> EncodedResponseCache.Entry {
        EncodedResponseCache.Entry(
            body: ByteBuffer(string: text), etag: "\"\(text)\"", cacheControl: "public, no-cache")
    }

    @Test("a read that began before a product was added is not stored after it")
    func staleReadIsNotStored() {
        let cache = EncodedResponseCache()
        let before = cache.generation
        cache.invalidate()  // a product is added while the read is in flight
        cache.store(entry("old page"), for: "page", generation: before)
        #expect(cache.entry(for: "page") == nil)
        cache.store(entry("new page"), for: "page", generation: cache.generation)
        #expect(cache.entry(for: "page")?.etag == "\"new page\"")
    }

    @Test("invalidating forgets every stored body")
    func invalidateForgetsAll() {
        let cache = EncodedResponseCache()
        cache.store(entry("a"), for: "a", generation: cache.generation)
        cache.store(entry("b"), for: "b", generation: cache.generation)
        cache.invalidate()
        #expect(cache.entry(for: "a") == nil && cache.entry(for: "b") == nil)
    }

    @Test("a full cache starts over instead of growing")
    func capacityBoundsMemory() {
        let cache = EncodedResponseCache(capacity: 2)
        for key in ["a", "b", "c"] { cache.store(entry(key), for: key, generation: cache.generation) }
        #expect(cache.entry(for: "c") != nil)
        #expect(cache.entry(for: "a") == nil && cache.entry(for: "b") == nil)
    }

    @Test("the cache never holds more bytes than its budget, however many keys it is given")
    func bytesBoundMemory() {
        let cache = EncodedResponseCache(capacity: 1024, maximumBytes: 10_000)
        let body = String(repeating: "x", count: 900)
        for key in 0..<200 {
            cache.store(entry(body + "\(key)"), for: "page \(key)", generation: cache.generation)
            #expect(cache.storedBytes <= 10_000)
        }
        #expect(cache.entry(for: "page 199") != nil)
    }

    @Test("a body over a quarter of the budget is served but not kept")
    func heavyBodyIsNotKept() {
        let cache = EncodedResponseCache(capacity: 1024, maximumBytes: 10_000)
        cache.store(entry("small"), for: "small", generation: cache.generation)
        cache.store(entry(String(repeating: "x", count: 2_600)), for: "heavy", generation: cache.generation)
        #expect(cache.entry(for: "heavy") == nil)
        #expect(cache.entry(for: "small") != nil)
    }

    @Test("replacing a key counts its bytes once")
    func replacingCountsOnce() {
        let cache = EncodedResponseCache(capacity: 1024, maximumBytes: 10_000)
        for _ in 0..<50 { cache.store(entry("same body"), for: "key", generation: cache.generation) }
        #expect(cache.storedBytes == entry("same body").size)
    }
}
