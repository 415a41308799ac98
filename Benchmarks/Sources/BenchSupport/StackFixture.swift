import AsyncHTTPClient
import BazaarAPI
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOHTTPCompression
import Networking
import NetworkingAsyncHTTPClient
import Session
import Synchronization

/// What the client-stack benchmarks and profiles run against: a release `bazaar-server` child process
/// with one seller and a page of products, a signed-in ``UserSession`` (the kit as an app uses it),
/// and the same request spelled out for raw AsyncHTTPClient.
public final class StackFixture: Sendable {
    /// The server child process this fixture started, or `nil` for a server shared by the run
    /// (`$BAZAAR_BENCH_SERVER_URL`, which `Benchmarks/run.sh` starts once for every suite).
    public let server: ServerProcess?
    /// Where the server listens.
    public let baseURL: URL
    /// The signed-in session whose authenticated controller is measured.
    public let session: UserSession
    /// The same session over the URLSession transport.
    public let urlSessionNetwork: AuthenticatedNetworkController
    /// `Authorization` for the raw yardstick: the same access token.
    public let authorization: String
    /// The full URL of the product page, for the raw yardstick.
    public let pageURL: String
    /// One product's id, for the single-product (cacheable for 60 s) benchmarks.
    public let productID: String

    /// How many products the page holds: a typical first screen.
    public static let pageSize = 20

    /// The product page as the app asks for it, with the cache off so every call reaches the server.
    public static let page = AuthenticatedEndpoint<Page<Product>>(
        .get, APIRoutes.products.template, parameters: .url(["limit": pageSize]), cachePolicy: .disabled)

    /// Seeds the server at `baseURL` (once: a server that already has the seller is reused) and
    /// signs in; `server` is the child process to stop with the fixture, if any.
    public init(baseURL: URL, server: ServerProcess? = nil) async throws {
        self.server = server
        self.baseURL = baseURL
        let seed = SeedClient(baseURL: baseURL)
        let seller: AuthResponse
        if let registered = try? await seed.register(username: "seller") {
            seller = registered
            for index in 0..<Self.pageSize {
                _ = try await seed.createProduct(
                    token: seller.tokens.accessToken, title: "Bench item \(index)", priceCents: 100 * (index + 1))
            }
        } else {
            // Seeded by an earlier benchmark of this run (the name is taken): sign in instead.
            seller = try await seed.send(
                .POST, "/v1/auth/login", body: LoginRequest(username: "seller", password: "bench-password"))
        }
        let page: Page<Product> = try await seed.get(APIRoutes.products.template + "?limit=\(Self.pageSize)")
        guard page.items.count == Self.pageSize, let first = page.items.last else {
            throw SeedClient.Failure(description: "the server holds \(page.items.count) products, not \(Self.pageSize)")
        }
        productID = first.id

        let client = APIClient.bazaar(
            baseURL: baseURL, performer: NetworkRequestPerformer(transport: AsyncHTTPClientTransport(), cache: nil))
        let starter = SessionStarter(client: client, tokenStore: InMemoryTokenStore())
        session = try await starter.login(username: "seller", password: "bench-password")
        let tokens = seller.tokens
        authorization = "Bearer \(tokens.accessToken)"
        pageURL = baseURL.absoluteString + APIRoutes.products.template + "?limit=\(Self.pageSize)"

        let viaURLSession = APIClient.bazaar(
            baseURL: baseURL, performer: NetworkRequestPerformer(transport: URLSessionTransport(), cache: nil))
        urlSessionNetwork = AuthenticatedNetworkController(
            client: viaURLSession, session: session.network.session, cachePartition: session.userID)
    }

    private static let current = Mutex<StackFixture?>(nil)

    /// The running fixture; benchmarks call this only between `start()` and `stop()`.
    public static var shared: StackFixture {
        get throws {
            guard let fixture = current.withLock({ $0 }) else { throw SeedClient.Failure(description: "no fixture") }
            return fixture
        }
    }

    /// Uses the run's shared server (`$BAZAAR_BENCH_SERVER_URL`) or starts one, and seeds it (the
    /// setup hook of every network benchmark; each benchmark is a process of its own).
    ///
    /// A shared server puts a figure and its yardstick on the very same server process, so the
    /// ratio does not carry the difference between two server starts.
    public static func start() async throws {
        if let text = ProcessInfo.processInfo.environment["BAZAAR_BENCH_SERVER_URL"] {
            guard let url = URL(string: text) else {
                throw SeedClient.Failure(description: "BAZAAR_BENCH_SERVER_URL is not a URL: \(text)")
            }
            let fixture = try await StackFixture(baseURL: url)
            current.withLock { $0 = fixture }
            return
        }
        let server = try ServerProcess()
        do {
            let fixture = try await StackFixture(baseURL: server.baseURL, server: server)
            current.withLock { $0 = fixture }
        } catch {
            server.stop()
            throw error
        }
    }

    /// Stops the server (the global teardown hook).
    public static func stop() {
        current.withLock { fixture in
            fixture?.server?.stop()
            fixture = nil
        }
    }

    /// The yardstick's client: AsyncHTTPClient configured as the kit's shared client is (decompression
    /// on, with the same ratio limit), so the comparison is like for like.
    public static let rawClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.decompression = .enabled(limit: .ratio(100))
        configuration.tracing.tracer = nil  // as the kit's client, with no tracer bootstrapped
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// The raw yardstick: AsyncHTTPClient and JSONDecoder with nothing in between.
    public func rawPage(client: HTTPClient = StackFixture.rawClient, decoder: JSONDecoder) async throws -> Page<Product>
    {
        var request = HTTPClientRequest(url: pageURL)
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 64 << 20)
        guard response.status == .ok else {
            throw SeedClient.Failure(description: "raw GET answered \(response.status.code)")
        }
        return try decoder.decode(Page<Product>.self, from: Data(buffer: body, byteTransferStrategy: .noCopy))
    }

    /// The raw yardstick with the kit's time limit: AsyncHTTPClient's own delegate API
    /// (`execute(request:deadline:)`, which gathers the body with its `ResponseAccumulator`), whose
    /// deadline covers the whole answer, body included, as the kit's per-attempt timeout does. The
    /// async `execute` above stops its deadline when the head arrives, so a stalled body is bounded
    /// by nothing there.
    public func rawBoundedPage(client: HTTPClient = StackFixture.rawClient, decoder: JSONDecoder) async throws -> Page<
        Product
    > {
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: authorization)
        headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        let request = try HTTPClient.Request(url: pageURL, method: .GET, headers: headers)
        let response = try await client.execute(request: request, deadline: .now() + .seconds(30)).get()
        guard response.status == .ok, let body = response.body else {
            throw SeedClient.Failure(description: "raw GET answered \(response.status.code)")
        }
        return try decoder.decode(Page<Product>.self, from: Data(buffer: body, byteTransferStrategy: .noCopy))
    }
}
