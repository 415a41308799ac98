import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

/// Sends requests with AsyncHTTPClient (SwiftNIO): the default transport on Linux.
///
/// Uses one process-wide client unless given another, so the connection pool is reused across
/// requests. That client does not retry failed connection attempts itself (AsyncHTTPClient's default
/// would keep trying until the deadline, turning "server down" into a slow timeout): the
/// performer's ``RetryPolicy`` decides about retries, with backoff, in one place.
///
/// Compressed answers: the shared client asks for `gzip, deflate` and inflates them as they stream
/// in, refusing a body that inflates more than ``decompressionRatioLimit`` times (a decompression
/// bomb, ``NetworkError/decompressionFailed(reason:)``); the size limit applies to inflated bytes.
/// A client of your own that does not decompress is not asked for compression, and a compressed
/// body it gets anyway is a clear error, not bytes the decoder chokes on.
public struct AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient
    private let decompresses: Bool

    /// How many times its compressed size a body may inflate to.
    public static let decompressionRatioLimit = 100

    /// The kit's shared client: lives for the whole process, so it is never shut down.
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        configuration.decompression = .enabled(limit: .ratio(decompressionRatioLimit))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Makes a transport over the kit's shared client (which decompresses).
    public init() {
        self.init(client: Self.sharedClient, decompresses: true)
    }

    /// Makes a transport over `client`; say whether it was configured with `decompression` enabled.
    public init(client: HTTPClient, decompresses: Bool) {
        self.client = client
        self.decompresses = decompresses
    }

    /// Sends `request`; this one exchange, body included, is bounded by `options.timeout`.
    public func send(_ request: TransportRequest, options: TransferOptions) async throws(NetworkError)
        -> TransportResponse
    {
        // Joined from the request's parts as text: going through Foundation's URL first would
        // parse the same address twice per request (AsyncHTTPClient parses the string anyway).
        guard let scheme = request.head.scheme, let authority = request.head.authority, let path = request.head.path
        else { throw .requestBuildFailed(.invalidPath(request.head.path ?? "")) }
        var outgoing = HTTPClientRequest(url: scheme + "://" + authority + path)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.head.method.rawValue)
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.head.headerFields.count + 1)
        for field in request.head.headerFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        if decompresses, request.head.headerFields[.acceptEncoding] == nil {
            headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        outgoing.headers = headers
        if let body = request.body {
            outgoing.body = Self.clientBody(body, progress: options.progress)
        }
        let client = self.client
        let request = outgoing
        let decompresses = decompresses
        do {
            // AsyncHTTPClient's deadline covers the response head only; the race bounds the body too.
            return try await Deadline.run(within: options.timeout) {
                try await Self.exchange(request, client: client, decompresses: decompresses, options: options)
            }
        } catch {
            throw Self.map(error)
        }
    }

    private static func exchange(
        _ outgoing: HTTPClientRequest, client: HTTPClient, decompresses: Bool, options: TransferOptions
    ) async throws -> TransportResponse {
        let response = try await client.execute(outgoing, timeout: TimeAmount(options.timeout))
        if !decompresses, let encoding = response.headers.first(name: "content-encoding"), encoding.lowercased() != "identity" {
            throw NetworkError.decompressionFailed(
                reason: "the server sent a \(encoding) body and this HTTPClient was not configured to decompress")
        }
        let expected = response.headers.first(name: "content-length").flatMap(Int64.init)
        if let expected, expected > options.maxResponseBytes {
            throw NetworkError.responseTooLarge(limit: options.maxResponseBytes)
        }
        var buffer = ByteBuffer()
        if let expected { buffer.reserveCapacity(Int(expected)) }
        for try await chunk in response.body {
            guard buffer.readableBytes + chunk.readableBytes <= options.maxResponseBytes else {
                throw NetworkError.responseTooLarge(limit: options.maxResponseBytes)
            }
            var chunk = chunk
            buffer.writeBuffer(&chunk)
            options.progress?(
                TransferProgress(direction: .download, completedBytes: Int64(buffer.readableBytes), totalBytes: expected))
        }
        var fields = HTTPFields()
        for header in response.headers {
            if let name = HTTPField.Name(header.name) {
                fields.append(HTTPField(name: name, value: header.value))
            }
        }
        let head = HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields)
        return TransportResponse(head: head, body: Data(buffer: buffer, byteTransferStrategy: .noCopy))
    }

    private static func clientBody(_ body: HTTPBody, progress: ProgressHandler?) -> HTTPClientRequest.Body {
        let length: HTTPClientRequest.Body.Length = body.length.map { .known($0) } ?? .unknown
        if progress == nil, case .bytes(let data) = body.storage {
            return .bytes(ByteBuffer(bytes: data))
        }
        let total = body.length
        let chunks = body.chunks().map { data -> ByteBuffer in ByteBuffer(bytes: data) }
        guard let progress else { return .stream(chunks, length: length) }
        let counted = ProgressCountingSequence(base: chunks, total: total, report: progress)
        return .stream(counted, length: length)
    }

    /// Maps AsyncHTTPClient and NIO errors to the kit's cases.
    static func map(_ error: any Error) -> NetworkError {
        switch error {
        case let error as NetworkError:
            return error
        case is CancellationError:
            return .cancelled
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout:
                return .timedOut
            case .cancelled:
                return .cancelled
            case .remoteConnectionClosed:
                return .noConnection(reason: "the server closed the connection")
            default:
                return .transport(reason: "\(error)")
            }
        case let error as NIOHTTPDecompression.DecompressionError:
            return .decompressionFailed(reason: Self.decompressionReason(error))
        case let error as NIOHTTPDecompression.ExtraDecompressionError:
            return .decompressionFailed(reason: "\(error)")
        case let error as NIOConnectionError:
            return .noConnection(reason: Self.connectionReason(error))
        case let error as IOError:
            return .noConnection(reason: error.description)
        case is ChannelError:
            return .noConnection(reason: "\(error)")
        default:
            if Task.isCancelled { return .cancelled }
            return .transport(reason: "\(error)")
        }
    }

    private static func decompressionReason(_ error: NIOHTTPDecompression.DecompressionError) -> String {
        switch error {
        case .limit: "it inflates to more than \(decompressionRatioLimit) times its compressed size"
        case .inflationError(let code): "the compressed data is corrupt (zlib error \(code))"
        case .initializationError(let code): "zlib could not start (error \(code))"
        }
    }

    private static func connectionReason(_ error: NIOConnectionError) -> String {
        if let first = error.connectionErrors.first {
            return "\(first.target): \(first.error)"
        }
        return "\(error.host):\(error.port) unreachable"
    }
}

/// Wraps a body's chunks and reports upload progress as the transport pulls each one.
struct ProgressCountingSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    let total: Int64?
    let report: ProgressHandler

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var sent: Int64 = 0
        let total: Int64?
        let report: ProgressHandler

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            sent += Int64(chunk.readableBytes)
            report(TransferProgress(direction: .upload, completedBytes: sent, totalBytes: total))
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), total: total, report: report)
    }
}

extension TimeAmount {
    /// The same span in NIO's units.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
