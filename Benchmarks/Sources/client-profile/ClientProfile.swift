import ArgumentParser
import AsyncHTTPClient
import BazaarAPI
import BenchSupport
import Foundation
import HTTPTypes
import Networking
import NetworkingAsyncHTTPClient
import Session

/// `client-profile`: sends the client-stack benchmark's page GET a fixed number of times, through
/// the kit or through raw AsyncHTTPClient, so a profiler can count what each costs on the client.
///
/// It prints this process's CPU time per measured request (user + system, every thread; the server
/// is a child process and not counted), which depends far less on a busy machine than wall-clock
/// time does, and `Benchmarks/profile-client.sh` runs it under `perf record` to name the hot spots.
@main
struct ClientProfile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-profile",
        abstract: "Sends the benchmark's product-page GET N times through the kit or raw AsyncHTTPClient.")

    /// Which client sends the requests.
    enum Path: String, ExpressibleByArgument, CaseIterable {
        case raw
        case rawBounded = "raw-bounded"
        case transport, performer, client, stack, layers, decode, hit
    }

    @Option(
        help: """
            raw (AsyncHTTPClient's async execute, whose deadline ends at the head, + JSONDecoder); \
            raw-bounded (AsyncHTTPClient's execute(request:deadline:), whose deadline covers the \
            body as the kit's timeout does, + JSONDecoder); transport (the kit's AsyncHTTPClientTransport + \
            JSONDecoder); performer (the performer's pipeline over that transport, sending a request \
            built once, + JSONDecoder); client (APIClient: builder, performer, typed decode, with the \
            access token as a fixed header, no session); stack (authenticated controller → \
            performer → decode); layers (the stack over \
            a transport that answers a recorded page at once: the kit's own cost, no network); decode \
            (JSONDecoder on that recorded page alone); hit (one product served fresh from the kit's \
            HTTP cache).
            """)
    var path: Path = .stack

    @Option(help: "How many measured requests to send after the warm-up.")
    var requests = 200

    @Option(help: "Warm-up requests (connection set up, caches filled) sent first on both paths.")
    var warmup = 20

    @Option(
        help:
            "Requests in flight at once (the benchmark's concurrent figure uses 32); the count is rounded to a multiple."
    )
    var concurrency = 1

    @Option(
        help: """
            A yardstick path measured against --path in alternating rounds in this one process (each \
            round runs both, the order swapped every round); prints each round's ratio and the median.
            """)
    var against: Path?

    @Option(help: "Rounds with --against.")
    var rounds = 7

    func validate() throws {
        guard requests >= 0, warmup >= 0 else { throw ValidationError("--requests and --warmup must be ≥ 0") }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        if against != nil, requests == 0 { throw ValidationError("--against needs --requests above 0") }
    }

    func run() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let fixture = try await StackFixture(baseURL: server.baseURL)
        let decoder = BazaarJSON.makeDecoder()
        let cached = NonAuthenticatedNetworkController(
            client: .bazaar(
                baseURL: server.baseURL,
                performer: NetworkRequestPerformer(transport: AsyncHTTPClientTransport(), cache: try HTTPCache())))
        let product = BazaarEndpoints.product(id: fixture.productID)
        let transport = AsyncHTTPClientTransport()
        guard let pageURL = URL(string: fixture.pageURL) else { throw ValidationError("not a URL: \(fixture.pageURL)") }
        var head = HTTPRequest(method: .get, url: pageURL)
        head.headerFields[.authorization] = fixture.authorization
        let transportRequest = TransportRequest(head: head)
        let recorded = try await transport.send(transportRequest, options: TransferOptions())
        let layers = AuthenticatedNetworkController(
            client: .bazaar(
                baseURL: server.baseURL,
                performer: NetworkRequestPerformer(transport: RecordedTransport(response: recorded), cache: nil)),
            session: fixture.session.network.session, cachePartition: "profile")
        let performer = NetworkRequestPerformer(transport: AsyncHTTPClientTransport(), cache: nil)
        let client = APIClient.bazaar(baseURL: server.baseURL, performer: performer)
        let tokenPage = PageWithToken(authorization: fixture.authorization)
        func send(_ path: Path) async throws {
            switch path {
            case .raw: _ = try await fixture.rawPage(decoder: decoder)
            case .rawBounded: _ = try await fixture.rawBoundedPage(decoder: decoder)
            case .transport:
                let response = try await transport.send(transportRequest, options: TransferOptions())
                _ = try decoder.decode(Page<Product>.self, from: response.body)
            case .stack: _ = try await fixture.session.network.request(StackFixture.page)
            case .layers: _ = try await layers.request(StackFixture.page)
            case .decode: _ = try decoder.decode(Page<Product>.self, from: recorded.body)
            case .hit: _ = try await cached.request(product)
            case .performer:
                let response = try await performer.perform(transportRequest, options: .init(cachePolicy: .disabled))
                _ = try decoder.decode(Page<Product>.self, from: response.body)
            case .client: _ = try await client.send(tokenPage)
            }
        }
        /// `count` requests on `path`, `concurrency` at a time.
        func sendAll(_ count: Int, on path: Path) async throws {
            guard concurrency > 1 else {
                for _ in 0..<count { try await send(path) }
                return
            }
            for _ in 0..<(count / concurrency) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<concurrency { group.addTask { try await send(path) } }
                    try await group.waitForAll()
                }
            }
        }
        let requests = concurrency > 1 ? self.requests / concurrency * concurrency : self.requests
        if let against {
            try await sendAll(warmup, on: against)
            try await sendAll(warmup, on: path)
            try await compare(path, against: against, requests: requests) { try await sendAll($0, on: $1) }
            return
        }
        try await sendAll(warmup, on: path)
        let switchesBefore = ContextSwitches.now()
        let cpuBefore = ProcessCPU.now()
        let clock = ContinuousClock()
        let started = clock.now
        try await sendAll(requests, on: path)
        let elapsed = clock.now - started
        let cpu = ProcessCPU.now() - cpuBefore
        let switches = ContextSwitches.now() - switchesBefore
        let perRequest = requests == 0 ? 0 : cpu / Double(requests) * 1e6
        let wall =
            requests == 0
            ? 0
            : Double(elapsed.components.seconds) * 1e6 / Double(requests)
                + Double(elapsed.components.attoseconds) / 1e12 / Double(requests)
        print(
            "client-profile \(path.rawValue) x\(concurrency): \(requests) requests, client CPU \(String(format: "%.1f", perRequest)) µs/request, "
                + "wall \(String(format: "%.1f", wall)) µs/request, "
                + "\(String(format: "%.2f", requests == 0 ? 0 : Double(switches) / Double(requests))) context switches/request, pid \(ProcessInfo.processInfo.processIdentifier)"
        )
    }
}

extension ClientProfile {
    /// What one measured batch cost per request.
    struct Batch {
        /// Wall-clock microseconds per request.
        let wall: Double
        /// Client CPU microseconds per request.
        let cpu: Double
    }

    /// Runs `requests` requests on `path` and on `yardstick` in alternating rounds (the order swapped
    /// every round, so a drift of the machine's speed falls on both) and prints each round's
    /// throughput ratio (yardstick wall time / path wall time; above 1 means `path` is faster) and
    /// the median over the rounds, for wall time and for client CPU.
    func compare(
        _ path: Path, against yardstick: Path, requests: Int, sendAll: (Int, Path) async throws -> Void
    ) async throws {
        func measure(_ measured: Path) async throws -> Batch {
            let cpuBefore = ProcessCPU.now()
            let clock = ContinuousClock()
            let started = clock.now
            try await sendAll(requests, measured)
            let elapsed = clock.now - started
            let wall = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 1e6
            return Batch(wall: wall / Double(requests), cpu: (ProcessCPU.now() - cpuBefore) * 1e6 / Double(requests))
        }
        var wallRatios: [Double] = []
        var cpuRatios: [Double] = []
        for round in 1...rounds {
            let (subject, reference): (Batch, Batch)
            if round.isMultiple(of: 2) {
                subject = try await measure(path)
                reference = try await measure(yardstick)
            } else {
                reference = try await measure(yardstick)
                subject = try await measure(path)
            }
            wallRatios.append(reference.wall / subject.wall)
            cpuRatios.append(reference.cpu / subject.cpu)
            print(
                "round \(round): \(path.rawValue) \(Self.format(subject.wall)) µs wall, \(Self.format(subject.cpu)) µs CPU; "
                    + "\(yardstick.rawValue) \(Self.format(reference.wall)) µs wall, \(Self.format(reference.cpu)) µs CPU; "
                    + "ratio \(Self.format(wallRatios.last ?? 0, digits: 3)) wall, \(Self.format(cpuRatios.last ?? 0, digits: 3)) CPU"
            )
        }
        print(
            "client-profile \(path.rawValue) vs \(yardstick.rawValue) x\(concurrency), \(rounds) rounds of \(requests) requests each: "
                + "median throughput ratio \(Self.format(Self.median(wallRatios), digits: 3)) (wall), "
                + "\(Self.format(Self.median(cpuRatios), digits: 3)) (client CPU); range "
                + "\(Self.format(wallRatios.min() ?? 0, digits: 3))–\(Self.format(wallRatios.max() ?? 0, digits: 3)) (wall)"
        )
    }

    /// The middle value (the mean of the two middle ones for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// `value` with `digits` decimals.
    static func format(_ value: Double, digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }
}

/// Answers every request with one recorded response: the kit's layers with no network under them.
struct RecordedTransport: HTTPTransport {
    /// The answer to every request.
    let response: TransportResponse

    /// Returns ``response`` at once.
    func send(_ request: TransportRequest, options: TransferOptions) async throws(NetworkError) -> TransportResponse {
        response
    }
}

/// The benchmark's page GET with the access token as a fixed header: the kit without the session.
struct PageWithToken: APIRequest {
    typealias Resource = Page<Product>
    /// `Authorization`'s value.
    let authorization: String

    var path: String { APIRoutes.products.template }
    var parameters: RequestParameters { StackFixture.page.spec.parameters }
    var headers: [String: String] { ["Authorization": authorization] }
    var cachePolicy: CachePolicy { .disabled }
}
