import AsyncHTTPClient
import BazaarAPI
import Foundation
import NIOCore
import NIOHTTP1

/// One answer from the server, with its body kept as bytes.
public struct TestResponse: Sendable {
    /// The HTTP status code.
    public let status: Int
    /// The response headers.
    public let headers: HTTPHeaders
    /// The response body.
    public let body: Data

    /// The body decoded with the contract's decoder.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try BazaarJSON.makeDecoder().decode(T.self, from: body)
    }

    /// The `error.code` of a JSON error body, or `nil` when the body is not one.
    public var errorCode: String? {
        (try? decode(ErrorBody.self))?.error.code
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The first value of a header.
    public func header(_ name: String) -> String? { headers.first(name: name) }
}

/// A small JSON HTTP client for tests, talking to a server at `baseURL`.
public struct BazaarTestClient: Sendable {
    /// The server's base URL (`http://127.0.0.1:PORT`).
    public let baseURL: URL

    /// Creates a client for a server.
    public init(baseURL: URL) {
        self.baseURL = baseURL
    }

    /// Sends a request: `json` is encoded with the contract's encoder (Content-Type application/json
    /// unless `contentType` says otherwise); `rawBody` is sent as it is.
    public func send(
        _ method: HTTPMethod, _ path: String, json: (any Encodable & Sendable)? = nil, rawBody: Data? = nil,
        contentType: String? = nil, token: String? = nil, headers: [(String, String)] = []
    ) async throws -> TestResponse {
        var request = HTTPClientRequest(url: baseURL.absoluteString + path)
        request.method = method
        if let json {
            request.body = .bytes(ByteBuffer(bytes: try BazaarJSON.makeEncoder().encode(json)))
            request.headers.add(name: "Content-Type", value: contentType ?? "application/json")
        } else if let rawBody {
            request.body = .bytes(ByteBuffer(bytes: rawBody))
            if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return TestResponse(
            status: Int(response.status.code), headers: response.headers, body: Data(body.readableBytesView))
    }

    /// `GET path`.
    public func get(_ path: String, token: String? = nil, headers: [(String, String)] = []) async throws -> TestResponse
    {
        try await send(.GET, path, token: token, headers: headers)
    }

    /// `POST path` with a JSON body.
    public func post(
        _ path: String, _ json: (any Encodable & Sendable)? = nil, token: String? = nil,
        headers: [(String, String)] = []
    ) async throws -> TestResponse {
        try await send(.POST, path, json: json, token: token, headers: headers)
    }

    /// Registers a user (password `password123` unless given) and returns the user with tokens.
    public func register(_ username: String, password: String = "password123", displayName: String? = nil) async throws
        -> AuthResponse
    {
        let response = try await post(
            APIRoutes.register.template,
            RegisterRequest(username: username, password: password, displayName: displayName ?? username.capitalized))
        guard response.status == 201 else { throw UnexpectedResponse(response: response) }
        return try response.decode(AuthResponse.self)
    }

    /// Signs an existing user in again (a new session) and returns the user with its tokens.
    public func login(_ username: String, password: String = "password123") async throws -> AuthResponse {
        let response = try await post(
            APIRoutes.login.template, LoginRequest(username: username, password: password))
        guard response.status == 200 else { throw UnexpectedResponse(response: response) }
        return try response.decode(AuthResponse.self)
    }

    /// Lists a product as the token's user.
    public func createProduct(_ title: String, token: String, priceCents: Int = 1000) async throws -> Product {
        let response = try await post(
            APIRoutes.createProduct.template,
            CreateProductRequest(title: title, description: "About \(title)", priceCents: priceCents, currency: "EUR"),
            token: token)
        guard response.status == 201 else { throw UnexpectedResponse(response: response) }
        return try response.decode(Product.self)
    }

    /// Opens a conversation with another user.
    public func startConversation(with userId: String, productId: String? = nil, token: String) async throws
        -> Conversation
    {
        let response = try await post(
            APIRoutes.startConversation.template, StartConversationRequest(userId: userId, productId: productId),
            token: token)
        guard response.status == 201 || response.status == 200 else { throw UnexpectedResponse(response: response) }
        return try response.decode(Conversation.self)
    }

    /// Sets the status of a product as its seller (whose token is `token`), for `buyerId`.
    public func changeStatus(of productId: String, to status: ProductStatus, buyerId: String?, token: String)
        async throws -> TestResponse
    {
        try await send(
            .PUT, APIRoutes.changeProductStatus.path(productId),
            json: ChangeProductStatusRequest(status: status, buyerId: buyerId), token: token)
    }

    /// Sends a message with an `Idempotency-Key` (a new one unless given).
    public func sendMessage(
        _ body: String, attachmentIds: [String] = [], in conversationId: String, token: String,
        key: String = UUID().uuidString
    ) async throws -> TestResponse {
        try await post(
            APIRoutes.sendMessage.path(conversationId), SendMessageRequest(body: body, attachmentIds: attachmentIds),
            token: token, headers: [(APIHeaders.idempotencyKey, key)])
    }

    /// Uploads `image` (a JPEG unless `contentType` says otherwise) as a chat photo to the
    /// conversation.
    public func uploadAttachment(
        _ image: Data, to conversationId: String, token: String, contentType: String = "image/jpeg"
    ) async throws -> TestResponse {
        try await send(
            .POST, APIRoutes.uploadAttachment.path(conversationId), rawBody: image, contentType: contentType,
            token: token)
    }
}

/// A helper got an answer it did not expect.
public struct UnexpectedResponse: Error, CustomStringConvertible {
    /// The answer.
    public let response: TestResponse

    /// Status and body.
    public var description: String { "unexpected \(response.status): \(response.text)" }
}
