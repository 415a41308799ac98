import BazaarAPI
import Foundation
import Networking
import Session
import TestSupport
import Testing

// The code of the DocC articles in Networking.docc and Session.docc, verbatim, run against a real
// bazaar-server. scripts/check-doc-examples.py fails when an article's code is not found here.

struct ProductSummary: Decodable, Sendable {
    var id: String
    var title: String
}

struct ProductPage: Decodable, Sendable {
    var items: [ProductSummary]
    var nextCursor: String?
}

struct Profile: Decodable, Sendable {
    var id: String
    var displayName: String
}

struct SearchProducts: APIRequest {
    typealias Resource = ProductPage
    var text: String
    var path: String { "/v1/products" }
    var parameters: RequestParameters { .url(["query": text, "limit": 20]) }
    var timeout: Duration? { .seconds(5) }
    var deadline: Duration? { .seconds(12) }
}

struct RefreshOverHTTP: TokenRefresher {
    let publicAPI: NonAuthenticatedNetworkController

    func refresh(using refreshToken: String) async throws(NetworkError) -> AuthTokens {
        try await publicAPI.request(
            NonAuthenticatedEndpoint<AuthTokens>(
                .post, "/v1/auth/refresh", parameters: .json(["refreshToken": refreshToken])))
    }
}

@Suite("The DocC articles' code, run")
struct DocumentationExampleTests {
    @Test("Typed requests and the builder")
    func typedRequests() async throws {
        try await SessionFixture.with { fixture in
            let serverURL = fixture.baseURL
            let seller = try await fixture.raw.register("seller")
            _ = try await fixture.raw.createProduct("Road bike", token: seller.tokens.accessToken)

            let built = try URLRequestBuilder(baseURL: serverURL, request: SearchProducts(text: "road bike")).build()
            let query = built.url?.query ?? ""  // "query=road%20bike&limit=20"
            #expect(query == "query=road%20bike&limit=20")
            #expect(built.url?.path == "/v1/products")

            let request = try URLRequestBuilder(baseURL: serverURL, request: SearchProducts(text: "road bike")).build()
            let line = CurlCommand(request).description  // curl 'http://…/v1/products?query=road%20bike&limit=20' -H …
            #expect(
                line
                    == "curl '\(serverURL.absoluteString)/v1/products?query=road%20bike&limit=20' -H 'Accept: application/json'"
            )

            let client = APIClient(baseURL: serverURL)
            let page = try await client.send(SearchProducts(text: "road bike"))
            #expect(page.items.map(\.title) == ["Road bike"])
        }
    }

    @Test("Two scopes and token refresh")
    func scopesAndRefresh() async throws {
        try await SessionFixture.with { fixture in
            let client = APIClient(baseURL: fixture.baseURL)
            let registered = try await fixture.raw.register("ada", displayName: "Ada")
            let userID = registered.user.id
            // Expired on purpose, so the first request refreshes through RefreshOverHTTP.
            let tokens = AuthTokens(
                accessToken: registered.tokens.accessToken, refreshToken: registered.tokens.refreshToken,
                expiresAt: Date() - 1)

            let publicAPI = NonAuthenticatedNetworkController(client: client)
            let catalogue = try await publicAPI.request(NonAuthenticatedEndpoint<ProductPage>(.get, "/v1/products"))
            #expect(catalogue.items.isEmpty)

            let coordinator = TokenRefreshCoordinator(
                tokens: tokens, refresher: RefreshOverHTTP(publicAPI: publicAPI), store: InMemoryTokenStore(),
                onSessionEnded: { print("signed out by the server") })
            let userAPI = AuthenticatedNetworkController(client: client, session: coordinator, cachePartition: userID)
            let me = try await userAPI.request(AuthenticatedEndpoint<Profile>(.get, "/v1/users/me"))
            #expect(me.displayName == "Ada")
            #expect(try await coordinator.validTokens().refreshToken != registered.tokens.refreshToken, "refreshed")
        }
    }

    @Test("The HTTP cache")
    func caching() async throws {
        try await SessionFixture.with { fixture in
            let serverURL = fixture.baseURL
            let cacheFolder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: cacheFolder) }

            let cache = try HTTPCache(folder: cacheFolder)
            let client = APIClient(baseURL: serverURL, performer: NetworkRequestPerformer(cache: cache))
            let first = try await client.send(SearchProducts(text: "lamp"))  // from the server, stored
            let second = try await client.send(SearchProducts(text: "lamp"))  // fresh: from the cache
            #expect(first.items.isEmpty && second.items.isEmpty)
        }
    }

    @Test("The user session")
    func userSession() async throws {
        try await SessionFixture.with { fixture in
            let serverURL = fixture.baseURL
            let tokenFile = fixture.tokenFile
            _ = try await fixture.raw.register("ada", password: "correct horse", displayName: "Ada")

            let starter = SessionStarter(
                client: .bazaar(baseURL: serverURL), tokenStore: FileTokenStore(url: tokenFile),
                onSessionEnded: { userID in print("the server ended \(userID)'s session") })
            let session = try await starter.login(username: "ada", password: "correct horse")

            let lastSeen: User? = nil
            if let resumed = try await starter.restore(lastKnownUser: lastSeen) {
                let name = await resumed.user.user.displayName
                print("Welcome back, \(name)")
            }
            #expect(try await starter.restore()?.userID == session.userID, "the stored tokens bring the session back")

            let me = try await session.network.request(BazaarEndpoints.me)
            await session.logout()
            #expect(me.displayName == "Ada")
            #expect(try await starter.restore() == nil, "signed out: nothing to resume")
        }
    }
}
