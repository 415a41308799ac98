import AsyncHTTPClient
import BazaarAPI
import BenchSupport
import Benchmark
import Foundation
import Networking
import Session

// Every figure here sits beside its yardstick, measured in the same run against the same
// release-built bazaar-server (another process, so its allocations are not counted here): the one
// Benchmarks/run.sh starts for the whole run, or one started per benchmark.
// Names are "<group>: <variant>"; Benchmarks/ratios.py pairs each variant with its group's yardstick.

/// Network benchmarks: time, rate, the client's CPU and its allocations; warmed up, a few seconds each,
/// each against the run's server (seeded by the first) or a freshly started one.
var networkConfiguration: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .cpuTotal, .mallocCountTotal], timeUnits: .microseconds,
        warmupIterations: 50, maxDuration: .seconds(4),
        maxIterations: 20_000, setup: { try await StackFixture.start() }, teardown: { StackFixture.stop() })
}

/// How many requests are in flight at once in the concurrent benchmarks.
let concurrency = 32

let benchmarks: @Sendable () -> Void = {
    registerStackBenchmarks()
    registerTransportBenchmarks()
    registerCacheBenchmarks()
    registerBuilderBenchmarks()
}

/// The full client stack (authenticated controller → performer → AsyncHTTPClient → decode) against
/// raw AsyncHTTPClient + JSONDecoder, for the same authenticated GET of a 20-product page.
func registerStackBenchmarks() {
    let decoder = BazaarJSON.makeDecoder()

    Benchmark("Page GET sequential: raw AsyncHTTPClient", configuration: networkConfiguration) { benchmark in
        let fixture = try StackFixture.shared
        for _ in benchmark.scaledIterations {
            blackHole(try await fixture.rawPage(decoder: decoder))
        }
    }
    // The same yardstick through AsyncHTTPClient's API whose deadline covers the body, as the kit's
    // per-attempt timeout does: the like-for-like figure beside the one above.
    Benchmark("Page GET sequential: raw AsyncHTTPClient, whole-answer deadline", configuration: networkConfiguration) {
        benchmark in
        let fixture = try StackFixture.shared
        for _ in benchmark.scaledIterations {
            blackHole(try await fixture.rawBoundedPage(decoder: decoder))
        }
    }
    Benchmark("Page GET sequential: client stack", configuration: networkConfiguration) { benchmark in
        let fixture = try StackFixture.shared
        for _ in benchmark.scaledIterations {
            blackHole(try await fixture.session.network.request(StackFixture.page))
        }
    }

    Benchmark("Page GET x\(concurrency) concurrent: raw AsyncHTTPClient", configuration: networkConfiguration) {
        benchmark in
        let fixture = try StackFixture.shared
        for _ in benchmark.scaledIterations {
            try await inParallel(concurrency) { _ in _ = try await fixture.rawPage(decoder: decoder) }
        }
    }
    Benchmark(
        "Page GET x\(concurrency) concurrent: raw AsyncHTTPClient, whole-answer deadline",
        configuration: networkConfiguration
    ) { benchmark in
        let fixture = try StackFixture.shared
        for _ in benchmark.scaledIterations {
            try await inParallel(concurrency) { _ in _ = try await fixture.rawBoundedPage(decoder: decoder) }
        }
    }
    Benchmark("Page GET x\(concurrency) concurrent: client stack", configuration: networkConfiguration) {
        benchmark in
        let fixture = try StackFixture.shared
        for _ in benchmark.scaledIterations {
            try await inParallel(concurrency) { _ in _ = try await fixture.session.network.request(StackFixture.page) }
        }
    }
}

/// The same stack over its two transports on Linux.
func registerTransportBenchmarks() {
    Benchmark("Transport: AsyncHTTPClient", configuration: networkConfiguration) { benchmark in
        let fixture = try StackFixture.shared
        for _ in benchmark.scaledIterations {
            blackHole(try await fixture.session.network.request(StackFixture.page))
        }
    }
    Benchmark("Transport: URLSession", configuration: networkConfiguration) { benchmark in
        let fixture = try StackFixture.shared
        for _ in benchmark.scaledIterations {
            blackHole(try await fixture.urlSessionNetwork.request(StackFixture.page))
        }
    }
}

/// A fresh cache hit and a 304 revalidation, each against a network GET of the same resource.
func registerCacheBenchmarks() {
    /// A public controller over a performer with a memory cache, as the app has.
    func cachingController() throws -> NonAuthenticatedNetworkController {
        let fixture = try StackFixture.shared
        let performer = NetworkRequestPerformer(cache: try HTTPCache())
        return NonAuthenticatedNetworkController(client: .bazaar(baseURL: fixture.baseURL, performer: performer))
    }

    // One product: `Cache-Control: public, max-age=60`, so after the first GET it is fresh.
    Benchmark("Product GET: network", configuration: networkConfiguration) { benchmark in
        let fixture = try StackFixture.shared
        let network = try cachingController()
        var endpoint = BazaarEndpoints.product(id: fixture.productID)
        endpoint.spec.cachePolicy = .disabled
        for _ in benchmark.scaledIterations {
            blackHole(try await network.request(endpoint))
        }
    }
    Benchmark("Product GET: fresh cache hit", configuration: networkConfiguration) { benchmark in
        let fixture = try StackFixture.shared
        let network = try cachingController()
        let endpoint = BazaarEndpoints.product(id: fixture.productID)
        _ = try await network.request(endpoint)  // stored, fresh for 60 s
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await network.request(endpoint))
        }
    }

    // A product page: `Cache-Control: public, max-age=0, must-revalidate` with an ETag, so every GET
    // after the first is a conditional request answered 304 and served from the cache.
    Benchmark("Page GET: network", configuration: networkConfiguration) { benchmark in
        let network = try cachingController()
        var endpoint = BazaarEndpoints.products(limit: StackFixture.pageSize)
        endpoint.spec.cachePolicy = .disabled
        for _ in benchmark.scaledIterations {
            blackHole(try await network.request(endpoint))
        }
    }
    Benchmark("Page GET: 304 revalidation", configuration: networkConfiguration) { benchmark in
        let network = try cachingController()
        let endpoint = BazaarEndpoints.products(limit: StackFixture.pageSize)
        _ = try await network.request(endpoint)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await network.request(endpoint))
        }
    }
}

/// Runs `count` copies of `operation` at once and waits for all of them.
func inParallel(_ count: Int, _ operation: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<count {
            group.addTask { try await operation(index) }
        }
        try await group.waitForAll()
    }
}
