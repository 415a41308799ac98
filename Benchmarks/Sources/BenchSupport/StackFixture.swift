import AsyncHTTPClient
import BazaarAPI
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Networking
import Session
import Synchronization

/// What the client-stack benchmarks and profiles run against: a release `bazaar-server` child process
/// with one seller and a page of products, a signed-in ``UserSession`` (the kit as an app uses it),
/// and the same request spelled out for raw AsyncHTTPClient.
public final class StackFixture: Sendable {
    /// The server child process.
    public let server: ServerProcess
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

    /// Seeds `server` and signs in.
    public init(server: ServerProcess) async throws {
        self.server = server
        let seed = SeedClient(baseURL: server.baseURL)
        let seller = try await seed.register(username: "seller")
        var firstID = ""
        for index in 0..<Self.pageSize {
            let product = try await seed.createProduct(
                token: seller.tokens.accessToken, title: "Bench item \(index)", priceCents: 100 * (index + 1))
            if index == 0 { firstID = product.id }
        }
        productID = firstID

        let client = APIClient.bazaar(baseURL: server.baseURL, performer: NetworkRequestPerformer(cache: nil))
        let starter = SessionStarter(client: client, tokenStore: InMemoryTokenStore())
        session = try await starter.login(username: "seller", password: "bench-password")
        let tokens = seller.tokens
        authorization = "Bearer \(tokens.accessToken)"
        pageURL = server.baseURL.absoluteString + APIRoutes.products.template + "?limit=\(Self.pageSize)"

        let viaURLSession = APIClient.bazaar(
            baseURL: server.baseURL, performer: NetworkRequestPerformer(transport: URLSessionTransport(), cache: nil))
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

    /// Starts a server and seeds it (the global setup hook, once per benchmark).
    public static func start() async throws {
        let server = try ServerProcess()
        do {
            let fixture = try await StackFixture(server: server)
            current.withLock { $0 = fixture }
        } catch {
            server.stop()
            throw error
        }
    }

    /// Stops the server (the global teardown hook).
    public static func stop() {
        current.withLock { fixture in
            fixture?.server.stop()
            fixture = nil
        }
    }

    /// The raw yardstick: AsyncHTTPClient and JSONDecoder with nothing in between.
    public func rawPage(client: HTTPClient, decoder: JSONDecoder) async throws -> Page<Product> {
        var request = HTTPClientRequest(url: pageURL)
        request.headers.add(name: "Authorization", value: authorization)
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 64 << 20)
        guard response.status == .ok else {
            throw SeedClient.Failure(description: "raw GET answered \(response.status.code)")
        }
        return try decoder.decode(Page<Product>.self, from: Data(buffer: body, byteTransferStrategy: .noCopy))
    }
}
