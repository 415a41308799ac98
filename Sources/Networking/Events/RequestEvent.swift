import HTTPTypes

/// Something that happened to one request on its way through ``NetworkRequestPerformer``, told to
/// its ``RequestEventMonitor``s.
///
/// A request's events share its ``requestID`` and come in this order: ``Kind/started``; then,
/// when it goes to the network, ``Kind/adapted(_:)`` with the request as sent, and
/// ``Kind/retrying(attempt:reason:delay:)`` before each wait; ``Kind/servedFromCache`` or
/// ``Kind/revalidated`` when the cache answered; and always ``Kind/finished(_:)`` last.
public struct RequestEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// The performer took the request.
        case started
        /// The request is going to the network as `head`: interceptors' header fields, the
        /// cache's conditional fields and `Authorization` added. It holds secrets; do not log it.
        /// Told again when a `401` makes the performer replay it with new credentials.
        case adapted(HTTPRequest)
        /// Attempt `attempt` failed for `reason`; the next one starts after `delay`.
        case retrying(attempt: Int, reason: RetryReason, delay: Duration)
        /// A fresh cached answer was used; nothing was sent.
        case servedFromCache
        /// The server confirmed the cached answer (`304`), which was used.
        case revalidated
        /// The request is over.
        case finished(RequestMetrics)
    }

    /// The same for every event of one request, unique in the process.
    public var requestID: UInt64
    /// The method (`GET`, `POST`, …).
    public var method: String
    /// The path, without its query (which can hold secrets).
    public var path: String
    /// What happened.
    public var kind: Kind
}

/// Why an attempt is followed by another.
public enum RetryReason: Sendable, Equatable, CustomStringConvertible {
    /// The server answered with this status (`503`, `429`, …).
    case status(Int)
    /// The attempt failed without an answer.
    case failure(NetworkError)

    public var description: String {
        switch self {
        case .status(let code): "status \(code)"
        case .failure(let error): NetworkErrorKind.name(error)
        }
    }
}

/// The numbers of one finished request.
public struct RequestMetrics: Sendable, Equatable {
    /// Where the answer came from.
    public enum Source: Sendable, Hashable {
        /// The network.
        case network
        /// The cache, nothing sent.
        case cache
        /// The cache, after the server confirmed it (`304`).
        case revalidated
    }

    /// From ``RequestEvent/Kind/started`` to now: interceptors, waits and retries included.
    public var duration: Duration
    /// Attempts on the network (0 for a cache hit; a `401` replay counts its own).
    public var attempts: Int
    /// The request body's length, when known (0 without a body).
    public var requestBytes: Int64?
    /// The response body's length (after decompression); 0 when there was no answer.
    public var responseBytes: Int
    /// The status answered, whatever it was; `nil` when there was no answer.
    public var status: Int?
    /// The failure the caller got, when the request failed without an answer.
    public var error: NetworkError?
    /// Where the answer came from; `nil` without an answer.
    public var source: Source?

    /// A short, low-cardinality name for how it ended: `2xx`…`5xx`, or the failure's kind
    /// (`timed_out`, `no_connection`, …), as a metrics dimension wants.
    public var outcome: String {
        if let status { return "\(status / 100)xx" }
        return error.map(NetworkErrorKind.name) ?? "unknown"
    }
}

/// Short names for the kinds of ``NetworkError``: one table for spans, metrics and events.
enum NetworkErrorKind {
    static func name(_ error: NetworkError) -> String {
        switch error {
        case .noConnection: "no_connection"
        case .timedOut: "timed_out"
        case .cancelled: "cancelled"
        case .httpStatus(let failure): "\(failure.status.code)"
        case .decodingFailed: "decoding_failed"
        case .requestBuildFailed: "request_build_failed"
        case .responseTooLarge: "response_too_large"
        case .decompressionFailed: "decompression_failed"
        case .sessionExpired: "session_expired"
        case .untrustedServer: "untrusted_server"
        case .transport: "transport"
        }
    }
}
