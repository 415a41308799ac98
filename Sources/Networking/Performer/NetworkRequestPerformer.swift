import Foundation
import HTTPTypes
import Logging

/// Performs built requests: interceptors, cache, transport, retry, status validation and logging.
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
    /// The `User-Agent` set on requests that carry none (`Bazaar/<version>` by default; `nil` sends
    /// whatever the transport adds on its own).
    public var userAgent: String? = KitVersion.userAgent

    /// Waits between attempts; replaceable in tests.
    var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// Draws jitter; replaceable in tests.
    var random: @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }

    /// Makes a performer.
    public init(
        transport: any HTTPTransport = AsyncHTTPClientTransport(),
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
    /// - Throws: ``NetworkError``: `httpStatus` for any other status (with the server's error body
    ///   decoded), or the transport's failure after retries ran out.
    public func perform(_ request: TransportRequest, options: Options = Options()) async throws(NetworkError)
        -> TransportResponse
    {
        let started = ContinuousClock.now
        var request = request
        for interceptor in interceptors {
            do {
                request = try await interceptor.adapt(request)
            } catch let error as NetworkError {
                throw error
            } catch {
                throw .requestBuildFailed(.interceptorFailed(reason: "\(error)"))
            }
        }
        if let userAgent, request.head.headerFields[.userAgent] == nil {
            request.head.headerFields[.userAgent] = userAgent
        }
        let authorization = try await options.authorizer?.authorization()
        if let authorization { request.head.headerFields[.authorization] = authorization }

        // One use of the cache per exchange: serve, or send (conditionally), then settle from the answer.
        let exchange = cache?.begin(request, partition: options.cachePartition, policy: options.cachePolicy)
        var outgoing = request
        switch exchange?.plan {
        case .serve(let response):
            log(request, response: response, started: started, note: "cache hit", attempts: 0)
            await notify(response, for: request)
            return response
        case .send(let conditional):
            outgoing = conditional
        case nil:
            break
        }

        var (received, attempts) = try await sendRetrying(outgoing, options: options, started: started)
        if received.status == .unauthorized, let authorizer = options.authorizer, let authorization {
            // The credentials were refused: replay once with newer ones, from the transport down.
            outgoing.head.headerFields[.authorization] = try await authorizer.authorization(replacing: authorization)
            let (replayed, more) = try await sendRetrying(outgoing, options: options, started: started)
            (received, attempts) = (replayed, attempts + more)
        }
        let response = exchange?.complete(with: received) ?? received
        log(
            request, response: response, started: started,
            note: exchange?.isRevalidation == true ? "revalidated, attempts" : "attempts", attempts: attempts)
        await notify(response, for: request)

        guard response.status.kind == .successful else {
            throw .httpStatus(
                HTTPStatusFailure(
                    status: response.status, headerFields: response.headerFields, body: response.body,
                    serverError: ServerError.decode(from: response.body)))
        }
        return response
    }

    // MARK: - Retry

    private func sendRetrying(_ request: TransportRequest, options: Options, started: ContinuousClock.Instant)
        async throws(NetworkError) -> (TransportResponse, Int)
    {
        let policy = options.retryPolicy ?? retryPolicy
        let attemptTimeout = options.timeout ?? timeout
        var transfer = TransferOptions(timeout: attemptTimeout, maxResponseBytes: maxResponseBytes, progress: options.progress)
        let end = (options.deadline ?? deadline).map { started + $0 }
        let canRetry = RetryRules.mayRetry(request)
        var attempt = 1
        var waited = Duration.zero
        while true {
            if let end {
                let left = end - .now
                guard left > .zero else { throw .timedOut }
                transfer.timeout = min(attemptTimeout, left)
            }
            let outcome: Result<TransportResponse, NetworkError>
            do {
                outcome = .success(try await transport.send(request, options: transfer))
            } catch {
                outcome = .failure(error)
            }
            guard canRetry, attempt < policy.maxAttempts,
                let delay = RetryRules.delay(
                    after: outcome, policy: policy, retry: attempt, waited: waited, now: Date(), random: random),
                end.map({ ContinuousClock.now + delay < $0 }) ?? true
            else {
                return (try outcome.get(), attempt)
            }
            logger.debug(
                "retrying request",
                metadata: [
                    "method": "\(request.head.method.rawValue)",
                    "path": "\(Redaction.path(request.head.path ?? ""))",
                    "attempt": "\(attempt + 1)",
                    "delay_ms": "\(delay.milliseconds)",
                ])
            do {
                try await sleep(delay)
            } catch {
                throw .cancelled
            }
            waited += delay
            attempt += 1
        }
    }

    // MARK: - Observers

    private func notify(_ response: TransportResponse, for request: TransportRequest) async {
        for interceptor in interceptors.reversed() {
            await interceptor.didReceive(response, for: request)
        }
    }

    /// Logs the exchange at `debug`; costs nothing (no text is built) when that level is off.
    private func log(
        _ request: TransportRequest, response: TransportResponse, started: ContinuousClock.Instant, note: StaticString,
        attempts: Int
    ) {
        guard logger.logLevel <= .debug else { return }
        let elapsed = ContinuousClock.now - started
        logger.debug(
            "\(request.head.method.rawValue) \(Redaction.path(request.head.path ?? "")) → \(response.status.code)",
            metadata: [
                "duration_ms": "\(elapsed.milliseconds)",
                "note": attempts == 0 ? "\(note)" : "\(note): \(attempts)",
            ])
        if logger.logLevel <= .trace {
            logger.trace(
                "exchange",
                metadata: [
                    "request_headers": "\(Redaction.headers(request.head.headerFields))",
                    "response_headers": "\(Redaction.headers(response.headerFields))",
                    "response_body": "\(Redaction.body(response.body))",
                ])
        }
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
