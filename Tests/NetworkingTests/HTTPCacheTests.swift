import Foundation
import HTTPTypes
import Synchronization
import TestSupport
import Testing

@testable import Networking

@Suite("HTTPCache against a real server")
struct HTTPCacheTests {
    let clock = TestClock()

    func cache(memoryLimit: Int = 1 << 20, folder: URL? = nil) throws -> HTTPCache {
        let clock = self.clock
        return try HTTPCache(memoryLimit: memoryLimit, folder: folder, now: { clock.now() })
    }

    @Test("a fresh response (max-age) is served from the cache without asking the server")
    func servesFreshResponse() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(cache: try cache())
            let first = try await client.send(Get<Counted>(path: "/cache/max-age/a"))
            clock.advance(by: .seconds(30))
            let second = try await client.send(Get<Counted>(path: "/cache/max-age/a"))
            #expect(first == second)
            #expect(fixture.hits.count("max-age-a") == 1)
            clock.advance(by: .seconds(31))
            let third = try await client.send(Get<Counted>(path: "/cache/max-age/a"))
            #expect(third["version"] == 2, "past max-age the server is asked again")
        }
    }

    @Test("a stale response with an ETag is revalidated; the 304 is served from the cache")
    func revalidatesWithETag() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(cache: try cache())
            let first = try await client.send(Get<Counted>(path: "/cache/etag/a"))
            let second = try await client.send(Get<Counted>(path: "/cache/etag/a"))
            #expect(first == ["version": 1] && second == first)
            #expect(fixture.hits.count("etag-200-a") == 1)
            #expect(fixture.hits.count("etag-304-a") == 1)
        }
    }

    @Test("a 304 that carries new freshness makes the entry fresh again")
    func notModifiedRefreshesFreshness() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(cache: try cache())
            let query: QueryParameters = ["maxAge": "10", "renewedMaxAge": "600"]
            _ = try await client.send(Get<Counted>(path: "/cache/etag/b", query: query))
            clock.advance(by: .seconds(11))
            _ = try await client.send(Get<Counted>(path: "/cache/etag/b", query: query))  // stale: revalidated
            _ = try await client.send(Get<Counted>(path: "/cache/etag/b", query: query))  // fresh again
            #expect(fixture.hits.count("etag-200-b") == 1)
            #expect(fixture.hits.count("etag-304-b") == 1, "the third call is fresh after the 304")
        }
    }

    @Test("Last-Modified with no-cache revalidates with If-Modified-Since on every use")
    func revalidatesWithLastModified() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(cache: try cache())
            for _ in 0..<3 { _ = try await client.send(Get<Counted>(path: "/cache/last-modified/a")) }
            #expect(fixture.hits.count("lm-200-a") == 1)
            #expect(fixture.hits.count("lm-304-a") == 2)
        }
    }

    @Test("no-store is never stored")
    func noStoreIsNotStored() async throws {
        try await KitFixture.with { fixture in
            let cache = try cache()
            let client = fixture.client(cache: cache)
            let first = try await client.send(Get<Counted>(path: "/cache/no-store/a"))
            let second = try await client.send(Get<Counted>(path: "/cache/no-store/a"))
            #expect(first["version"] == 1 && second["version"] == 2)
            #expect(cache.memoryUsage == 0)
        }
    }

    @Test("private responses are kept: this is a private, per-client cache")
    func privateIsStored() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(cache: try cache())
            _ = try await client.send(Get<Counted>(path: "/cache/private/a"))
            _ = try await client.send(Get<Counted>(path: "/cache/private/a"))
            #expect(fixture.hits.count("private-a") == 1)
        }
    }

    @Test("Vary keeps a separate answer per value of the named request header")
    func varySeparatesEntries() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(cache: try cache())
            let english = try await client.send(
                Get<[String: String]>(path: "/cache/vary/a", headers: ["Accept-Language": "en"]))
            let french = try await client.send(
                Get<[String: String]>(path: "/cache/vary/a", headers: ["Accept-Language": "fr"]))
            let englishAgain = try await client.send(
                Get<[String: String]>(path: "/cache/vary/a", headers: ["Accept-Language": "en"]))
            #expect(english["language"] == "en" && french["language"] == "fr" && englishAgain["language"] == "en")
            #expect(fixture.hits.count("vary-a-en") == 1)
            #expect(fixture.hits.count("vary-a-fr") == 1)
        }
    }

    @Test("memory is bounded by bytes: the least recently used entry is evicted first")
    func evictsLeastRecentlyUsedByBytes() async throws {
        try await KitFixture.with { fixture in
            let cache = try cache(memoryLimit: 25_000)
            let client = fixture.client(cache: cache)
            func get(_ name: String) async throws {
                _ = try await client.send(Get<Data>(path: "/cache/sized/\(name)", query: ["bytes": 10_000]))
            }
            try await get("a")
            try await get("b")
            try await get("a")  // a is now the most recent; b the least
            try await get("c")  // over the limit: b goes
            #expect(cache.memoryUsage <= 25_000)
            try await get("a")
            try await get("b")
            #expect(fixture.hits.count("sized-a") == 1, "a stayed")
            #expect(fixture.hits.count("sized-b") == 2, "b was evicted and fetched again")
        }
    }

    @Test("an entry larger than the whole memory limit is not kept")
    func oversizedEntryIsNotKept() async throws {
        try await KitFixture.with { fixture in
            let cache = try cache(memoryLimit: 5_000)
            let client = fixture.client(cache: cache)
            _ = try await client.send(Get<Data>(path: "/cache/sized/huge", query: ["bytes": 10_000]))
            #expect(cache.memoryUsage == 0)
        }
    }

    @Test("entries on disk survive into a second cache instance on the same folder")
    func persistsAcrossInstances() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bazaar-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await KitFixture.with { fixture in
            _ = try await fixture.client(cache: try cache(folder: folder)).send(
                Get<Counted>(path: "/cache/max-age/disk"))
            let reopened = fixture.client(cache: try cache(folder: folder))
            let again = try await reopened.send(Get<Counted>(path: "/cache/max-age/disk"))
            #expect(again["version"] == 1)
            #expect(fixture.hits.count("max-age-disk") == 1)
        }
    }

    @Test("wiping a partition removes only that partition's entries, in memory and on disk")
    func wipesOnePartition() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bazaar-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await KitFixture.with { fixture in
            let cache = try cache(folder: folder)
            var alice = fixture.client(cache: cache)
            alice.cachePartition = "alice"
            var bob = fixture.client(cache: cache)
            bob.cachePartition = "bob"
            let aliceRequest = Get<[String: String]>(path: "/cache/user", headers: ["Authorization": "alice"])
            let bobRequest = Get<[String: String]>(path: "/cache/user", headers: ["Authorization": "bob"])
            _ = try await alice.send(aliceRequest)
            _ = try await bob.send(bobRequest)
            cache.removeAll(partition: "alice")
            let reopened = try HTTPCache(folder: folder)
            alice.performer.cache = reopened
            bob.performer.cache = reopened
            _ = try await alice.send(aliceRequest)
            _ = try await bob.send(bobRequest)
            #expect(fixture.hits.count("user-alice") == 2, "alice's entry was wiped")
            #expect(fixture.hits.count("user-bob") == 1, "bob's entry is still there")
        }
    }

    @Test("one partition never serves another's entry for the same URL")
    func partitionsAreSeparate() async throws {
        try await KitFixture.with { fixture in
            let cache = try cache()
            var alice = fixture.client(cache: cache)
            alice.cachePartition = "alice"
            var bob = fixture.client(cache: cache)
            bob.cachePartition = "bob"
            let a = try await alice.send(
                Get<[String: String]>(path: "/cache/user", headers: ["Authorization": "alice"]))
            let b = try await bob.send(Get<[String: String]>(path: "/cache/user", headers: ["Authorization": "bob"]))
            #expect(a["user"] == "alice" && b["user"] == "bob")
        }
    }

    @Test("the reloadIgnoringCache and disabled policies go to the server")
    func policiesBypassCache() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(cache: try cache())
            _ = try await client.send(Get<Counted>(path: "/cache/max-age/p"))
            _ = try await client.send(Get<Counted>(path: "/cache/max-age/p", cachePolicy: .reloadIgnoringCache))
            _ = try await client.send(Get<Counted>(path: "/cache/max-age/p", cachePolicy: .disabled))
            #expect(fixture.hits.count("max-age-p") == 3)
            let cached = try await client.send(Get<Counted>(path: "/cache/max-age/p"))
            #expect(cached["version"] == 2, "reload stored its answer; disabled did not")
        }
    }

    @Test("returnCacheElseLoad serves a stale entry, unless it says must-revalidate")
    func returnCacheElseLoadHonoursMustRevalidate() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(cache: try cache())
            _ = try await client.send(Get<Counted>(path: "/cache/max-age/offline"))
            _ = try await client.send(Get<Counted>(path: "/cache/must-revalidate/offline"))
            clock.advance(by: .seconds(120))
            let stale = try await client.send(
                Get<Counted>(path: "/cache/max-age/offline", cachePolicy: .returnCacheElseLoad))
            let strict = try await client.send(
                Get<Counted>(path: "/cache/must-revalidate/offline", cachePolicy: .returnCacheElseLoad))
            #expect(stale["version"] == 1 && fixture.hits.count("max-age-offline") == 1)
            #expect(strict["version"] == 2 && fixture.hits.count("must-revalidate-offline") == 2)
        }
    }

    @Test("looking up ever more URLs does not grow memory without bound: the vary memo forgets past its limit")
    func varyMemoIsBounded() throws {
        let cache = try cache()
        for index in 0..<(HTTPCache.varyIndexLimit + 100) {
            let request = TransportRequest(
                head: HTTPRequest(method: .get, scheme: "http", authority: "example.test", path: "/items/\(index)"))
            guard case .miss = cache.lookup(request, partition: nil, policy: .useProtocol) else {
                Issue.record("an empty cache found something for \(index)")
                return
            }
        }
        #expect(cache.varyIndexCount <= HTTPCache.varyIndexLimit)
        #expect(cache.varyIndexCount > 0)
    }

    @Test("a successful POST to a URL drops the cached GET of that URL")
    func unsafeMethodInvalidates() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(cache: try cache())
            _ = try await client.send(Get<Echo>(path: "/echo"))
            #expect(fixture.hits.count("echo") == 1)
            _ = try await client.send(Send<Echo>(path: "/echo", method: .post, parameters: .json(["a": 1])))
            #expect(fixture.hits.count("echo") == 2)
        }
    }
}

@Suite("LRUStore")
struct LRUStoreTests {
    @Test("evicts from the least recently used end until the cost fits")
    func evictsByCost() {
        var store = LRUStore<String, Int>(costLimit: 10)
        store.set(1, for: "a", cost: 4)
        store.set(2, for: "b", cost: 4)
        _ = store.value(for: "a")
        let evicted = store.set(3, for: "c", cost: 4)
        #expect(evicted == ["b"])
        #expect(store.keysByRecency == ["c", "a"])
        #expect(store.totalCost == 8)
    }

    @Test("replacing a key updates its cost; removing frees it")
    func replaceAndRemove() {
        var store = LRUStore<String, Int>(costLimit: 10)
        store.set(1, for: "a", cost: 6)
        store.set(2, for: "a", cost: 3)
        #expect(store.totalCost == 3 && store.count == 1 && store.value(for: "a") == 2)
        store.removeValue(for: "a")
        #expect(store.totalCost == 0 && store.count == 0)
        store.set(5, for: "z", cost: 11)
        #expect(store.count == 0, "too large to keep")
    }
}

@Suite("Freshness")
struct FreshnessTests {
    func entry(_ headers: [(String, String)], received: Date) -> CachedResponse {
        var entry = CachedResponse(
            response: TransportResponse(head: .init(status: .ok), body: Data()), requestDate: received,
            responseDate: received, varyValues: [:])
        entry.headers = headers.map { CachedResponse.Header(name: $0.0, value: $0.1) }
        return entry
    }

    @Test("Age from an upstream cache counts against max-age")
    func ageHeaderCounts() {
        let now = Date()
        let aged = entry([("Cache-Control", "max-age=60"), ("Age", "50")], received: now)
        #expect(Freshness.isFresh(aged, now: now.addingTimeInterval(5)))
        #expect(!Freshness.isFresh(aged, now: now.addingTimeInterval(11)))
    }

    @Test("Expires minus Date is the lifetime; an invalid Expires is already stale")
    func expiresHeader() {
        let date = Date(timeIntervalSince1970: 784_111_777)
        let fresh = entry(
            [("Date", "Sun, 06 Nov 1994 08:49:37 GMT"), ("Expires", "Sun, 06 Nov 1994 08:50:37 GMT")], received: date)
        #expect(Freshness.lifetime(of: fresh) == 60)
        #expect(Freshness.lifetime(of: entry([("Expires", "0")], received: date)) == 0)
    }
}
