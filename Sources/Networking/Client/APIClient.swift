import Foundation
import Logging

/// Receives the outcome of a request in the seeds' completion-handler style.
public typealias NetworkResultHandler<T> = @Sendable (Result<T, NetworkError>) -> Void

/// Sends typed ``APIRequest``s to one server and decodes their `Resource` (seed 004's `APIClient`).
///
/// ```swift
/// let client = APIClient(baseURL: serverURL)
/// let product = try await client.send(GetProduct(id: "p1"))
/// ```
public struct APIClient: Sendable {
    /// The server every request's path is joined to.
    public var baseURL: URL
    /// Sends the built requests.
    public var performer: NetworkRequestPerformer
    /// The cache partition for this client's requests (the signed-in user's id, say).
    public var cachePartition: String?
    /// Encodes JSON bodies.
    public var encoder: JSONEncoder
    /// Decodes JSON responses.
    public var decoder: JSONDecoder

    /// A decoder reading ISO 8601 dates, as the Bazaar API and most JSON APIs write them.
    public static let defaultJSONDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// Makes a client for `baseURL` over `performer`.
    public init(
        baseURL: URL,
        performer: NetworkRequestPerformer = NetworkRequestPerformer(),
        cachePartition: String? = nil,
        encoder: JSONEncoder = URLRequestBuilder.defaultJSONEncoder,
        decoder: JSONDecoder = APIClient.defaultJSONDecoder
    ) {
        self.baseURL = baseURL
        self.performer = performer
        self.cachePartition = cachePartition
        self.encoder = encoder
        self.decoder = decoder
    }

    /// Builds, sends and decodes `request`.
    ///
    /// - Parameters:
    ///   - request: what to send, and how to decode the answer.
    ///   - progress: receives upload and download progress, if given.
    ///   - authorizer: supplies the `Authorization` value, and a newer one to replay with once
    ///     after a `401`; `nil` sends the request as it is.
    /// - Throws: ``NetworkError``, whose cases say what to do next.
    public func send<Request: APIRequest>(
        _ request: Request, progress: ProgressHandler? = nil, authorizer: (any RequestAuthorizer)? = nil
    ) async throws(NetworkError) -> Request.Resource {
        let built: TransportRequest
        do {
            built = try URLRequestBuilder(baseURL: baseURL, request: request).set(jsonEncoder: encoder).build()
        } catch {
            throw .requestBuildFailed(error)
        }
        let options = NetworkRequestPerformer.Options(
            cachePolicy: request.cachePolicy, retryPolicy: request.retryPolicy, timeout: request.timeout,
            deadline: request.deadline, authorizer: authorizer,
            cachePartition: cachePartition, progress: progress)
        let response = try await performer.perform(consume built, options: options)
        do {
            return try request.decode(response, using: decoder)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw .decodingFailed(DecodingFailure(type: Request.Resource.self, error: error))
        }
    }

    /// Sends `request` and calls `handler` with the outcome (the seeds' `then:` form).
    ///
    /// A thin layer over the async ``send(_:progress:authorizer:)``; cancel the returned task to cancel the request.
    @discardableResult
    public func send<Request: APIRequest>(
        _ request: Request, then handler: @escaping NetworkResultHandler<Request.Resource>
    ) -> Task<Void, Never> {
        Task {
            do throws(NetworkError) {
                handler(.success(try await send(request)))
            } catch {
                handler(.failure(error))
            }
        }
    }
}
