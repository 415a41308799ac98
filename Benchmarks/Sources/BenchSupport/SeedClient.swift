import AsyncHTTPClient
import BazaarAPI
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Fills a running server with users, products and conversations over its public API, with raw
/// AsyncHTTPClient (so seeding does not depend on the client stack being measured).
public struct SeedClient: Sendable {
    /// The server's address.
    public let baseURL: URL
    private let client: HTTPClient

    /// Why a seeding call failed.
    public struct Failure: Error, CustomStringConvertible {
        /// In words.
        public let description: String

        /// A failure described in words.
        public init(description: String) {
            self.description = description
        }
    }

    /// A client for the server at `baseURL`.
    public init(baseURL: URL, client: HTTPClient = .shared) {
        self.baseURL = baseURL
        self.client = client
    }

    /// Registers a user (password `bench-password`) and returns the user and tokens.
    public func register(username: String) async throws -> AuthResponse {
        try await send(
            .POST, "/v1/auth/register",
            body: RegisterRequest(username: username, password: "bench-password", displayName: username.capitalized))
    }

    /// Creates a product owned by the holder of `token`.
    public func createProduct(token: String, title: String, priceCents: Int) async throws -> Product {
        try await send(
            .POST, "/v1/products",
            body: CreateProductRequest(
                title: title, description: "A \(title.lowercased()) in good condition, collected from town.",
                priceCents: priceCents, currency: "EUR"),
            token: token)
    }

    /// Opens (or finds) the conversation between the holder of `token` and `userId`.
    public func startConversation(token: String, with userId: String, productId: String? = nil) async throws
        -> Conversation
    {
        try await send(
            .POST, "/v1/conversations", body: StartConversationRequest(userId: userId, productId: productId),
            token: token)
    }

    /// Sends a message into a conversation with a fresh idempotency key.
    public func sendMessage(token: String, conversationId: String, body: String) async throws -> Message {
        try await send(
            .POST, "/v1/conversations/\(conversationId)/messages", body: SendMessageRequest(body: body), token: token,
            headers: ["Idempotency-Key": UUID().uuidString])
    }

    /// GETs `path` and decodes a 2xx answer.
    public func get<Answer: Decodable>(_ path: String) async throws -> Answer {
        let response = try await client.execute(
            HTTPClientRequest(url: baseURL.absoluteString + path), timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        guard (200..<300).contains(response.status.code) else {
            throw Failure(description: "GET \(path) answered \(response.status.code): \(String(buffer: bytes))")
        }
        return try BazaarJSON.makeDecoder().decode(
            Answer.self, from: Data(buffer: bytes, byteTransferStrategy: .noCopy))
    }

    /// Sends one JSON request and decodes a 2xx answer.
    public func send<Body: Encodable, Answer: Decodable>(
        _ method: HTTPMethod, _ path: String, body: Body, token: String? = nil, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL.absoluteString + path)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(data: try BazaarJSON.makeEncoder().encode(body)))
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        guard (200..<300).contains(response.status.code) else {
            throw Failure(description: "\(method) \(path) answered \(response.status.code): \(String(buffer: bytes))")
        }
        return try BazaarJSON.makeDecoder().decode(
            Answer.self, from: Data(buffer: bytes, byteTransferStrategy: .noCopy))
    }
}
