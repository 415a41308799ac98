import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import Networking
import Tracing

/// Sends requests with AsyncHTTPClient (SwiftNIO): the transport to choose on Linux, where it is
/// faster than FoundationNetworking's `URLSession`. It lives in a product of its own,
/// `NetworkingAsyncHTTPClient`, so an app on ``URLSessionTransport`` takes no SwiftNIO at all:
///
/// ```swift
/// let performer = NetworkRequestPerformer(transport: AsyncHTTPClientTransport())
/// ```
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
///
/// Tracing: give your tracer to the performer (`NetworkRequestPerformer.tracer`), which opens one
/// client span per exchange and sends `traceparent`. The shared client also uses a tracer
/// bootstrapped with `InstrumentationSystem` before its first request, and would then open a span
/// of its own per attempt beside the kit's; with none bootstrapped it opens no spans at all.
public struct AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient
    private let decompresses: Bool
    /// Set when made with a ``ServerTrust``: every request then goes through a ``TrustTunnel``.
    private let trusted: TrustedOrigins?

    /// How many times its compressed size a body may inflate to.
    public static let decompressionRatioLimit = TransferOptions.decompressionRatioLimit

    /// The kit's shared client: lives for the whole process, so it is never shut down.
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        // AsyncHTTPClient bounds a request's wait for a pooled connection by its connect timeout,
        // not by the request's deadline. Ten seconds failed requests queued behind busy connections
        // with their own timeout still running; the per-attempt deadline is the bound that counts.
        configuration.timeout.connect = .minutes(5)
        configuration.decompression = .enabled(limit: .ratio(decompressionRatioLimit))
        // With no tracer bootstrapped, AsyncHTTPClient still opens a span on the no-op tracer for
        // every request it is handed a delegate for, naming it by reflecting the method (`Mirror`):
        // five allocations and a few microseconds per request that trace nothing. A tracer an app
        // bootstraps before its first request is kept.
        if InstrumentationSystem.tracer is NoOpTracer {
            configuration.tracing.tracer = nil
        }
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
        self.trusted = nil
    }

    /// Makes a transport that believes only what `trust` says: its roots, and, when it has pins, a
    /// server whose certificate's key matches one of them.
    ///
    /// A refused server is ``NetworkError/untrustedServer(reason:)``, naming what failed (the
    /// chain, the host name, or the key with its pin); a plain `http` URL is refused the same way.
    /// AsyncHTTPClient offers no hook to see the certificate it verified, so TLS for these
    /// requests is made by the kit, in-process, behind a Unix socket that `client` speaks plain
    /// HTTP to (see the "Trusting a server" article in `Networking`). Timeouts, retries and decompression are as usual.
    ///
    /// - Throws: ``ServerTrustError/invalidCertificate(reason:)`` for a root that is not a
    ///   certificate.
    public init(trust: ServerTrust, client: HTTPClient = Self.sharedClient, decompresses: Bool = true)
        throws(ServerTrustError)
    {
        self.client = client
        self.decompresses = decompresses
        self.trusted = try TrustedOrigins(trust)
    }

    /// Sends `request`; this one exchange, body included, is bounded by `options.timeout`.
    ///
    /// The bound is AsyncHTTPClient's own deadline on the request, which covers the whole answer:
    /// one timer on the event loop, no extra task racing the exchange.
    public func send(_ request: TransportRequest, options: TransferOptions) async throws(NetworkError)
        -> TransportResponse
    {
        let (url, tunnel, host) = try await target(of: request)
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.head.headerFields.count + 2)
        for field in request.head.headerFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        if let host { headers.replaceOrAdd(name: "Host", value: host) }
        if decompresses, request.head.headerFields[.acceptEncoding] == nil {
            headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        let outgoing: HTTPClient.Request
        do {
            outgoing = try HTTPClient.Request(
                url: url,
                method: NIOHTTP1.HTTPMethod(rawValue: request.head.method.rawValue),
                headers: headers, body: request.body.map { clientBody($0, streamed: options.progress != nil) })
        } catch {
            throw .requestBuildFailed(.invalidPath(request.head.path ?? ""))
        }
        let collector = ResponseCollector(
            options: options, decompresses: decompresses, isHead: request.head.method == .head,
            uploadTotal: request.body?.length)
        let task = client.execute(
            request: outgoing, delegate: collector, deadline: .now() + TimeAmount(options.timeout))
        do {
            return try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch {
            // A connection the tunnel closed because it refused the server: say why.
            if let refusal = tunnel?.takeFailure() { throw refusal }
            throw Self.map(error)
        }
    }

    /// Streams the answer's body to `body` as it arrives, under AsyncHTTPClient's back-pressure:
    /// memory stays at a few chunks whatever the size. Asks for the body as it is
    /// (`Accept-Encoding: identity`), so byte ranges mean bytes of the file. `options.timeout`
    /// bounds the whole download.
    public func download(_ request: TransportRequest, options: TransferOptions, into body: DownloadBody)
        async throws(NetworkError) -> HTTPResponse
    {
        let (url, tunnel, host) = try await target(of: request)
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.head.method.rawValue)
        for field in request.head.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let host { outgoing.headers.replaceOrAdd(name: "Host", value: host) }
        outgoing.headers.replaceOrAdd(name: "Accept-Encoding", value: "identity")
        do {
            let response = try await client.execute(outgoing, deadline: .now() + TimeAmount(options.timeout))
            var fields = HTTPFields()
            for header in response.headers {
                if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
            }
            let head = HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields)
            guard body.accepts(head) else { return head }
            let total = response.headers.first(name: "Content-Length").flatMap(Int64.init)
            var received: Int64 = 0
            for try await chunk in response.body {
                try body.write(Data(buffer: chunk, byteTransferStrategy: .noCopy))
                received += Int64(chunk.readableBytes)
                options.progress?(TransferProgress(direction: .download, completedBytes: received, totalBytes: total))
            }
            return head
        } catch let error as NetworkError {
            throw error
        } catch {
            if let refusal = tunnel?.takeFailure() { throw refusal }
            throw Self.map(error)
        }
    }

    /// Where `request` goes, for `send` and `download` alike: its URL joined as text (AsyncHTTPClient
    /// parses the string once itself), or, on a trusting transport, the origin's tunnel with the
    /// `Host` to send, since the URL then names the tunnel's socket.
    private func target(of request: TransportRequest) async throws(NetworkError)
        -> (url: String, tunnel: TrustTunnel?, host: String?)
    {
        guard let scheme = request.head.scheme, let authority = request.head.authority, let path = request.head.path
        else { throw .requestBuildFailed(.invalidPath(request.head.path ?? "")) }
        guard let trusted else { return (scheme + "://" + authority + path, nil, nil) }
        let tunnel = try await trusted.tunnel(scheme: scheme, authority: authority)
        return (tunnel.urlPrefix + path, tunnel, authority)
    }

    /// The body as AsyncHTTPClient sends it: bytes in one write, or, when it streams from a file or
    /// progress is watched, chunk by chunk as the connection takes them.
    private func clientBody(_ body: HTTPBody, streamed: Bool) -> HTTPClient.Body {
        if !streamed, case .bytes(let data) = body.storage {
            return .byteBuffer(ByteBuffer(bytes: data))
        }
        // The client's own event loops, not the process-wide ones: a client made with its own
        // group keeps all its work there.
        let eventLoops = client.eventLoopGroup
        return .stream(contentLength: body.length) { writer in
            let promise = eventLoops.any().makePromise(of: Void.self)
            promise.completeWithTask {
                for try await chunk in body.chunks() {
                    try await writer.write(.byteBuffer(ByteBuffer(bytes: chunk))).get()
                }
            }
            return promise.futureResult
        }
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
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
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

extension TimeAmount {
    /// The same span in NIO's units.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
