import BazaarAPI
import Dependencies
import Foundation
import Networking
import NetworkingTesting
import Products
import Session
import TestSupport
import Testing

/// The product list's logic controller driven by `StubTransport`, with no server: how an adopter
/// tests a feature. (The kit's own tests use real servers; this shows the stubs work for theirs.)
@Suite("A logic controller on stubbed responses")
struct StubbedProductListTests {
    static let createdAt = Date(timeIntervalSince1970: 1_790_000_000)
    static func product(_ id: String, _ title: String) -> Product {
        Product(
            id: id, sellerId: "u1", title: title, description: "", priceCents: 1500, currency: "EUR",
            createdAt: createdAt)
    }

    @Test("a search presents the stubbed page, pages on with the stub's cursor, and the requests carried the search")
    func searchAndPage() async throws {
        let lamp = Self.product("p1", "Brass lamp")
        let shade = Self.product("p2", "Lamp shade")
        let transport = StubTransport()
        transport.stub(
            .get, "/v1/products",
            with: try .json(Page(items: [lamp], nextCursor: "c2")),
            try .json(Page(items: [shade], nextCursor: nil)))
        let client = APIClient(
            baseURL: URL(string: "https://api.example")!,
            performer: NetworkRequestPerformer(transport: transport))
        let list = ProductListLogicController(network: NonAuthenticatedNetworkController(client: client), pageSize: 1)

        let first = await list.send(.load(query: "  lamp "))
        #expect(first.content?.products == [lamp])
        #expect(first.content?.hasMore == true)
        let second = await list.send(.loadMore)
        #expect(second.content?.products == [lamp, shade])
        #expect(second.content?.hasMore == false)

        let sent = transport.exchanges(.get, "/v1/products").map(\.target)
        #expect(sent.count == 2)
        #expect(sent[0].contains("query=lamp") && !sent[0].contains("cursor"))
        #expect(sent[1].contains("query=lamp") && sent[1].contains("cursor=c2"))
    }

    @Test("an injected failure is the screen's offline error, and the next load presents again")
    func injectedFailure() async throws {
        let transport = StubTransport()
        transport.stub(
            .get, "/v1/products",
            with: .failure(.noConnection(reason: "injected")),
            try .json(Page(items: [Self.product("p1", "Lamp")], nextCursor: nil)))
        let client = APIClient(
            baseURL: URL(string: "https://api.example")!,
            performer: NetworkRequestPerformer(transport: transport, retryPolicy: .never))
        let list = ProductListLogicController(network: NonAuthenticatedNetworkController(client: client))

        let failed = await list.send(.load(query: nil))
        guard case .failed(let error) = failed else {
            Issue.record("expected a failure, got \(failed)")
            return
        }
        #expect(error.kind == .offline)
        #expect(await list.send(.load(query: nil)).content?.products.count == 1)
        #expect(transport.exchanges.map(\.status) == [nil, 200])
    }

    @Test("latency on a test clock: the screen is loading until the clock moves, with no real wait")
    func latencyOnATestClock() async throws {
        let clock = ManualClock()
        let transport = StubTransport(latency: .seconds(3), clock: clock)
        transport.stub(
            .get, "/v1/products", with: try .json(Page(items: [Self.product("p1", "Lamp")], nextCursor: nil)))
        let client = APIClient(
            baseURL: URL(string: "https://api.example")!,
            performer: NetworkRequestPerformer(transport: transport))
        let list = ProductListLogicController(network: NonAuthenticatedNetworkController(client: client))
        let states = await list.states()
        let loading = Task { await list.send(.load(query: nil)) }
        #expect(await clock.sleepers(reach: 1))
        var iterator = states.makeAsyncIterator()
        #expect(await iterator.next() == .loading)
        clock.advance(by: .seconds(3))
        #expect(await loading.value.content?.products.count == 1)
    }
}
