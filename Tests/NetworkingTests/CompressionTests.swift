import AsyncHTTPClient
import Foundation
import Networking
import NetworkingAsyncHTTPClient
import Testing

@Suite("Compressed answers and the default headers, on both transports", .timeLimit(.minutes(1)))
struct CompressionTests {
    @Test(
        "a gzip or deflate body reaches the decoder inflated", arguments: TransportKind.allCases, ["gzip", "deflate"])
    func compressedBodiesAreInflated(kind: TransportKind, encoding: String) async throws {
        try await KitFixture.with { fixture in
            let product = try await fixture.client(transport: kind.transport).send(
                Get<ExampleProduct>(path: "/compressed/\(encoding)"))
            #expect(product.id == "p-1")
            #expect(product.title.hasPrefix("Road bike Road bike"))
        }
    }

    /// What fetching the bomb with a size limit of `maxResponseBytes` fails with.
    static func bombError(_ fixture: KitFixture, _ kind: TransportKind, maxResponseBytes: Int) async -> NetworkError? {
        var performer = NetworkRequestPerformer(transport: kind.transport, retryPolicy: .never)
        performer.maxResponseBytes = maxResponseBytes
        do throws(NetworkError) {
            _ = try await APIClient(baseURL: fixture.baseURL, performer: performer).send(Get<Data>(path: "/bomb"))
            return nil
        } catch {
            return error
        }
    }

    @Test("a small body that inflates past the limits is a typed error, not memory", arguments: TransportKind.allCases)
    func bombIsRefused(kind: TransportKind) async throws {
        try await KitFixture.with { fixture in
            switch await Self.bombError(fixture, kind, maxResponseBytes: 4 << 20) {
            case .responseTooLarge(4 << 20), .decompressionFailed: break
            case let other: Issue.record("expected a refusal, got \(String(describing: other))")
            }
        }
    }

    @Test("under a generous size limit the ratio limit still stops a bomb early", arguments: TransportKind.allCases)
    func ratioLimitStopsBomb(kind: TransportKind) async throws {
        try await KitFixture.with { fixture in
            let error = await Self.bombError(fixture, kind, maxResponseBytes: 1 << 30)
            guard case .decompressionFailed(let reason) = error else {
                Issue.record("expected decompressionFailed, got \(String(describing: error))")
                return
            }
            #expect(reason == "it inflates to more than 100 times its compressed size")
        }
    }

    @Test(
        "requests carry Accept-Encoding: gzip, deflate and User-Agent: Bazaar/<version>",
        arguments: TransportKind.allCases)
    func defaultHeaders(kind: TransportKind) async throws {
        try await KitFixture.with { fixture in
            let echo = try await fixture.client(transport: kind.transport).send(Get<Echo>(path: "/echo"))
            #expect(echo.headers["user-agent"] == "Bazaar/\(KitVersion.version)")
            #expect(echo.headers["accept-encoding"] == "gzip, deflate")
        }
    }

    @Test("a User-Agent of the app's own, or one on the request, wins", arguments: TransportKind.allCases)
    func userAgentIsOverridable(kind: TransportKind) async throws {
        try await KitFixture.with { fixture in
            var performer = NetworkRequestPerformer(transport: kind.transport)
            performer.userAgent = "Shop/2.1"
            let client = APIClient(baseURL: fixture.baseURL, performer: performer)
            #expect(try await client.send(Get<Echo>(path: "/echo")).headers["user-agent"] == "Shop/2.1")
            let own = try await client.send(Get<Echo>(path: "/echo", headers: ["User-Agent": "Probe/1"]))
            #expect(own.headers["user-agent"] == "Probe/1")
        }
    }

    @Test(
        "a client of the app's own that does not decompress is not asked for compression, and says so when it gets it")
    func nonDecompressingClient() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        try await KitFixture.with { fixture in
            let transport = AsyncHTTPClientTransport(client: client, decompresses: false)
            let echo = try await fixture.client(transport: transport).send(Get<Echo>(path: "/echo"))
            #expect(echo.headers["accept-encoding"] == nil)
            await #expect {
                try await fixture.client(transport: transport, retry: .never).send(
                    Get<ExampleProduct>(path: "/compressed/gzip"))
            } throws: { error in
                guard case NetworkError.decompressionFailed(let reason) = error else { return false }
                return reason.contains("not configured to decompress")
            }
        }
    }
}
