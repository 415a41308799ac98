import Foundation
import HTTPTypes
import Logging
import Tracing

/// Performs built requests through a pipeline of small stages (logging, interceptors, cache,
/// authorization, retry, transport), then checks the status.
///
/// One performer sits under every controller (seed 001/003's `NetworkRequestPerformer`): the
/// authenticated and non-authenticated controllers differ in what they put on a request, never in
/// how it is sent. It is a value type holding only `Sendable` collaborators and can be shared freely.
public struct NetworkRequestPerformer: Sendable {
    /// Sends the bytes.
    public var transport: any HTTPTransport
    /// Run in order before sending and in reverse after receiving.
    public var interceptors: [any RequestInterceptor]
    /// The response cache; `nil` for none.
    public var cache: HTTPCache?
    /// How requests are retried unless a request says otherwise.
    public var retryPolicy: RetryPolicy
    /// How long one attempt may take (connecting, sending, and the whole answer), unless a request says otherwise.
    public var timeout: Duration
    /// How long the request may take in all, every attempt and wait between them included, unless a request
    /// says otherwise; `nil` for no limit beyond the retry policy's (at most `maxAttempts` times `timeout`,
    /// plus `maxTotalDelay` of waiting).
    public var deadline: Duration? = nil
    /// The largest response body accepted.
    public var maxResponseBytes: Int
    /// Where exchanges are logged: method, path, status, duration at `debug`; redacted headers at `trace`.
    public var logger: Logger
    /// Where each exchange's client span is made, its context sent on as `traceparent`; `nil`
    /// (the default) for no tracing at all. Hand in the tracer your app made (with swift-otel,
    /// say), not necessarily the one bootstrapped globally.
    public var tracer: (any Tracer)? = nil
    /// Who is told of every request's events (started, adapted, retried, served from cache,
    /// finished with its numbers); empty (the default) for nobody, at no cost. See
    /// ``RequestEventMonitor``.
    public var monitors: [any RequestEventMonitor] = []
    /// The `User-Agent` set on requests that carry none (`Bazaar/<version>` by default; `nil` sends
    /// whatever the transport adds on its own).
    public var userAgent: String? = KitVersion.userAgent {
        didSet { userAgentField = userAgent.map { HTTPField(name: .userAgent, value: $0) } }
    }
    /// ``userAgent`` as a field, made when it is set rather than on every request.
    private var userAgentField: HTTPField? = KitVersion.userAgentField

    /// Waits between attempts; replaceable in tests.
    var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// Draws jitter; replaceable in tests.
    var random: @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    /// The wall clock a `Retry-After` date is read against; replaceable in tests.
    var now: @Sendable () -> Date = { Date() }

    /// Makes a performer. The transport is ``URLSessionTransport`` unless you give another: on
    /// Linux, `AsyncHTTPClientTransport()` from the `NetworkingAsyncHTTPClient` product.
    public init(
        transport: any HTTPTransport = URLSessionTransport(),
        interceptors: [any RequestInterceptor] = [],
        cache: HTTPCache? = nil,
        retryPolicy: RetryPolicy = .default,
        timeout: Duration = .seconds(30),
        maxResponseBytes: Int = 64 << 20,
        logger: Logger = Logger(label: "bazaar.networking")
    ) {
        self.transport = transport
        self.interceptors = interceptors
        self.cache = cache
        self.retryPolicy = retryPolicy
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.logger = logger
    }

    /// Per-request choices that override the performer's defaults.
    public struct Options: Sendable {
        /// How this request may use the cache.
        public var cachePolicy: CachePolicy
        /// How this request is retried; `nil` for the performer's policy.
        public var retryPolicy: RetryPolicy?
        /// How long one attempt may take (connecting, sending, and the whole answer); `nil` for the performer's
        /// timeout.
        public var timeout: Duration?
        /// How long the request may take in all, every attempt and wait between them included; `nil` for the
        /// performer's deadline.
        public var deadline: Duration?
        /// The cache partition (the signed-in user's, for one); `nil` for the shared partition.
        public var cachePartition: String?
        /// Receives upload and download progress.
        public var progress: ProgressHandler?
        /// Adds the `Authorization` header, and replays once with a newer one after a `401`.
        public var authorizer: (any RequestAuthorizer)?

        /// Makes options.
        public init(
            cachePolicy: CachePolicy = .useProtocol, retryPolicy: RetryPolicy? = nil, timeout: Duration? = nil,
            deadline: Duration? = nil, authorizer: (any RequestAuthorizer)? = nil, cachePartition: String? = nil,
            progress: ProgressHandler? = nil
        ) {
            self.authorizer = authorizer
            self.cachePolicy = cachePolicy
            self.retryPolicy = retryPolicy
            self.timeout = timeout
            self.deadline = deadline
            self.cachePartition = cachePartition
            self.progress = progress
        }
    }

    /// Performs `request` and returns its successful (2xx) response.
    ///
    /// The request goes through the pipeline in one direction, each stage with one job:
    /// logging → tracing → interceptors → cache → authorization → retry → transport.
    ///
    /// - Throws: ``NetworkError``: `httpStatus` for any other status (with the server's error body
    ///   decoded), or the transport's failure after retries ran out.
    public func perform(_ request: consuming TransportRequest, options: Options = Options()) async throws(NetworkError)
        -> TransportResponse
    {
        let started = ContinuousClock.now
        let context = ExchangeContext(
            started: started, end: (options.deadline ?? deadline).map { started + $0 }, options: options,
            retryPolicy: options.retryPolicy ?? retryPolicy,
            transfer: TransferOptions(
                timeout: options.timeout ?? timeout, maxResponseBytes: maxResponseBytes, progress: options.progress))
        let response = try await pipeline.exchange(request, context).response
        guard response.status.kind == .successful else {
            throw .httpStatus(
                HTTPStatusFailure(
                    status: response.status, headerFields: response.headerFields, body: response.body,
                    serverError: ServerError.decode(from: response.body)))
        }
        return response
    }

    /// The stages a request passes through, outermost first.
    var pipeline: some ExchangeLayer {
        LoggingLayer(
            logger: logger,
            next: MonitorLayer(
                monitors: monitors,
                next: TracingLayer(
                    tracer: tracer,
                    next: InterceptorLayer(
                        interceptors: interceptors, userAgent: userAgentField,
                        next: CacheLayer(
                            cache: cache,
                            next: AuthorizationLayer(
                                next: RetryLayer(
                                    logger: logger, sleep: sleep, random: random, now: now,
                                    next: TransportLayer(transport: transport))))))))
    }
}

extension HTTPRequest.Method {
    /// Whether a successful response to this method invalidates cached responses for its URL.
    var isUnsafe: Bool { ![.get, .head, .options, .trace].contains(self) }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
