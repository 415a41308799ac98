import NIOCore
import Testing

@testable import BazaarServer

@Suite("EncodedResponseCache")
struct EncodedResponseCacheTests {
    private func entry(_ text: String) -> EncodedResponseCache.Entry {
        EncodedResponseCache.Entry(body: ByteBuffer(string: text), etag: "\"\(text)\"")
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
}
