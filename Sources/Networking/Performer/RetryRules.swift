import Foundation
import HTTPTypes

/// Decides whether and when a failed attempt is tried again. Pure functions, tested on their own.
enum RetryRules {
    /// The header that makes a non-idempotent request safe to repeat.
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")

    /// Whether `request` may be sent more than once: an idempotent method, or an `Idempotency-Key`.
    static func mayRetry(_ request: TransportRequest) -> Bool {
        if let key = idempotencyKey, request.head.headerFields[key] != nil { return true }
        switch request.head.method {
        case .get, .head, .options, .put, .delete, .trace: return true
        default: return false
        }
    }

    /// Statuses worth another attempt for a request that may be repeated.
    static func isRetryable(status: Int) -> Bool {
        switch status {
        case 408, 429, 500, 502, 503, 504: true
        default: false
        }
    }

    /// Failures worth another attempt: the server was unreachable, or did not answer in time.
    static func isRetryable(_ error: NetworkError) -> Bool {
        switch error {
        case .noConnection, .timedOut: true
        default: false
        }
    }

    /// The wait before retry number `retry`, or `nil` to stop: the outcome is final, or the wait
    /// (the longer of backoff and `Retry-After`) would exceed the policy's time budget.
    static func delay(
        after outcome: Result<TransportResponse, NetworkError>, policy: RetryPolicy, retry: Int, waited: Duration,
        now: Date, random: (ClosedRange<Double>) -> Double
    ) -> Duration? {
        var serverWait: Duration?
        switch outcome {
        case .success(let response):
            guard isRetryable(status: response.status.code) else { return nil }
            serverWait = response.headerFields[.retryAfter].flatMap { RetryAfter.parse($0, now: now) }
        case .failure(let error):
            guard isRetryable(error) else { return nil }
        }
        let backoff = policy.backoff(forRetry: retry, random: random)
        let wait = max(backoff, serverWait ?? .zero)
        guard waited + wait <= policy.maxTotalDelay else { return nil }
        return wait
    }
}
