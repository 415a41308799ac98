import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Networking

/// Counts how often a ``CountedDecode`` or ``DecodedBox`` was decoded with the decoder carrying it.
private final class DecodeCounter: Sendable {
    static let key = CodingUserInfoKey(rawValue: "bazaar.decodeCounter")!
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }

    /// A decoder reporting its decodes to this counter.
    func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[Self.key] = self
        return decoder
    }

    static func note(_ decoder: any Decoder) { (decoder.userInfo[key] as? DecodeCounter)?.increment() }
}

private enum VersionKey: String, CodingKey { case version }

/// `{"version": n}` as a struct that counts its decodes.
private struct CountedDecode: Decodable, Sendable, Equatable {
    var version: Int
    init(from decoder: any Decoder) throws {
        DecodeCounter.note(decoder)
        version = try decoder.container(keyedBy: VersionKey.self).decode(Int.self, forKey: .version)
    }
}

/// `{"version": n}` as a class that counts its decodes.
private final class DecodedBox: Decodable, Sendable {
    let version: Int
    init(from decoder: any Decoder) throws {
        DecodeCounter.note(decoder)
        version = try decoder.container(keyedBy: VersionKey.self).decode(Int.self, forKey: .version)
    }
}

/// A request whose own `decode` depends on one of its properties.
private struct GetShifted: APIRequest {
    typealias Resource = Int
    var path: String
    var shift: Int
    func decode(_ response: TransportResponse, using decoder: JSONDecoder) throws -> Int {
        try decoder.decode(Counted.self, from: response.body)["version", default: 0] + shift
    }
}

@Suite("Decoded values reused by fresh cache hits")
struct DecodedValueReuseTests {
    let clock = TestClock()

    func client(_ fixture: KitFixture, decoder: JSONDecoder) throws -> APIClient {
        let clock = self.clock
        var client = fixture.client(cache: try HTTPCache(now: { clock.now() }))
        client.decoder = decoder
        return client
    }

    @Test("a fresh hit hands back the value decoded from the network answer, without decoding again")
    func freshHitsReuseTheDecodedValue() async throws {
        try await KitFixture.with { fixture in
            let counter = DecodeCounter()
            let client = try client(fixture, decoder: counter.decoder())
            for _ in 0..<3 {
                #expect(try await client.send(Get<CountedDecode>(path: "/cache/max-age/reuse")).version == 1)
            }
            #expect(fixture.hits.count("max-age-reuse") == 1)
            #expect(counter.value == 1)
        }
    }

    @Test("an uncached answer is decoded every time")
    func uncachedAnswersAreDecodedEachTime() async throws {
        try await KitFixture.with { fixture in
            let counter = DecodeCounter()
            let client = try client(fixture, decoder: counter.decoder())
            for _ in 0..<3 {
                _ = try await client.send(Get<CountedDecode>(path: "/cache/max-age/none", cachePolicy: .disabled))
            }
            #expect(counter.value == 3)
        }
    }

    @Test("another decoder instance or another type decodes the stored bytes itself")
    func otherDecodersAndTypesDecodeAgain() async throws {
        try await KitFixture.with { fixture in
            let counter = DecodeCounter()
            var client = try client(fixture, decoder: counter.decoder())
            _ = try await client.send(Get<CountedDecode>(path: "/cache/max-age/other"))
            client.decoder = counter.decoder()
            _ = try await client.send(Get<CountedDecode>(path: "/cache/max-age/other"))
            #expect(counter.value == 2, "a new decoder may be configured differently")
            let counted = try await client.send(Get<Counted>(path: "/cache/max-age/other"))
            #expect(counted == ["version": 1], "a different type is not handed the kept value")
            #expect(fixture.hits.count("max-age-other") == 1)
        }
    }

    @Test("class resources are decoded afresh for every hit, so callers never share an instance")
    func classResourcesAreNotShared() async throws {
        try await KitFixture.with { fixture in
            let counter = DecodeCounter()
            let client = try client(fixture, decoder: counter.decoder())
            let first = try await client.send(Get<DecodedBox>(path: "/cache/max-age/box"))
            let second = try await client.send(Get<DecodedBox>(path: "/cache/max-age/box"))
            #expect(first !== second)
            #expect(counter.value == 2)
            #expect(fixture.hits.count("max-age-box") == 1)
        }
    }

    @Test("a new body stored after expiry is decoded; the old value is not served")
    func newBodyIsDecoded() async throws {
        try await KitFixture.with { fixture in
            let counter = DecodeCounter()
            let client = try client(fixture, decoder: counter.decoder())
            #expect(try await client.send(Get<CountedDecode>(path: "/cache/max-age/expiry")).version == 1)
            clock.advance(by: .seconds(61))
            #expect(try await client.send(Get<CountedDecode>(path: "/cache/max-age/expiry")).version == 2)
            #expect(counter.value == 2)
        }
    }

    @Test("a 304 keeps the stored body, so the value decoded from it is reused")
    func revalidationKeepsTheDecodedValue() async throws {
        try await KitFixture.with { fixture in
            let counter = DecodeCounter()
            let client = try client(fixture, decoder: counter.decoder())
            _ = try await client.send(Get<CountedDecode>(path: "/cache/etag/kept"))
            #expect(try await client.send(Get<CountedDecode>(path: "/cache/etag/kept")).version == 1)
            #expect(fixture.hits.count("etag-304-kept") == 1)
            #expect(counter.value == 1)
        }
    }

    @Test("a request's own decode runs on every hit, so its properties still shape the result")
    func customDecodeRunsOnEveryHit() async throws {
        try await KitFixture.with { fixture in
            let client = try client(fixture, decoder: JSONDecoder())
            #expect(try await client.send(GetShifted(path: "/cache/max-age/shift", shift: 0)) == 1)
            #expect(try await client.send(GetShifted(path: "/cache/max-age/shift", shift: 10)) == 11)
            #expect(fixture.hits.count("max-age-shift") == 1)
        }
    }
}
