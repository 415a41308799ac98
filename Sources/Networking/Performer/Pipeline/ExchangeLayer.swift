/// One stage of ``NetworkRequestPerformer``'s pipeline: it does its one job and hands the request
/// to the next stage, then sees the answer on the way back.
///
/// The stages, outermost first: ``LoggingLayer`` → ``MonitorLayer`` → ``TracingLayer`` → ``InterceptorLayer`` → ``CacheLayer`` →
/// ``AuthorizationLayer`` → ``RetryLayer`` → ``TransportLayer``. They nest as generic values, so a
/// request passes through them with no existential calls and no allocation of its own.
protocol ExchangeLayer: Sendable {
    /// Takes `request` one stage closer to the socket and returns what came back.
    ///
    /// The request is consumed: a stage that adds a header field changes the only copy instead of
    /// copying the fields its caller no longer needs.
    func exchange(_ request: consuming TransportRequest, _ context: ExchangeContext) async throws(NetworkError)
        -> ExchangeResult
}

/// What travels down the pipeline beside the request: the caller's choices for this one request,
/// already resolved against the performer's defaults.
struct ExchangeContext: Sendable {
    /// When the exchange began.
    let started: ContinuousClock.Instant
    /// When every attempt and wait must be over; `nil` for no limit beyond the retry policy's.
    let end: ContinuousClock.Instant?
    /// The caller's per-request options.
    let options: NetworkRequestPerformer.Options
    /// How this request is retried.
    let retryPolicy: RetryPolicy
    /// What the transport honours for one attempt (the retry stage shortens its timeout near `end`).
    var transfer: TransferOptions
    /// Where the inner stages tell the performer's monitors what happens; `nil` with none.
    var events: RequestEventSink? = nil
}

/// What comes back up the pipeline: the answer and how it was obtained, for the log.
struct ExchangeResult: Sendable {
    /// How the answer was obtained.
    enum Source: Sendable {
        /// From the network, in this many attempts.
        case network(attempts: Int)
        /// From the network as a conditional request, in this many attempts.
        case revalidation(attempts: Int)
        /// From the cache, with nothing sent.
        case cache
    }

    /// The answer, whatever its status.
    var response: TransportResponse
    /// How it was obtained.
    var source: Source
    /// The request as it last went to the transport (after interceptors, conditional headers and
    /// authorization); `nil` when nothing was sent.
    var sent: TransportRequest?

    /// The number of attempts on the network (0 for a cache hit).
    var attempts: Int {
        switch source {
        case .network(let attempts), .revalidation(let attempts): attempts
        case .cache: 0
        }
    }
}
