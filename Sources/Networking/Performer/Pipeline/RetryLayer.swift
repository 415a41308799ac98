import Foundation
import HTTPTypes
import Logging

/// Sends again after a failure worth another attempt (``RetryRules``), waiting between attempts,
/// and keeps every attempt and wait inside the request's deadline.
struct RetryLayer<Next: ExchangeLayer>: ExchangeLayer {
    /// Where "retrying" is noted at `debug`.
    let logger: Logger
    /// Waits between attempts.
    let sleep: @Sendable (Duration) async throws -> Void
    /// Draws jitter.
    let random: @Sendable (ClosedRange<Double>) -> Double
    /// The transport stage.
    let next: Next

    /// Makes attempts until one is final, the policy says stop, or the deadline would be crossed.
    func exchange(_ request: consuming TransportRequest, _ context: ExchangeContext) async throws(NetworkError) -> ExchangeResult {
        let policy = context.retryPolicy
        let attemptTimeout = context.transfer.timeout
        let canRetry = RetryRules.mayRetry(request)
        var attemptContext = context
        var attempt = 1
        var waited = Duration.zero
        while true {
            if let end = context.end {
                let left = end - .now
                guard left > .zero else { throw .timedOut }
                attemptContext.transfer.timeout = min(attemptTimeout, left)
            }
            let outcome: Result<ExchangeResult, NetworkError>
            do {
                outcome = .success(try await next.exchange(copy request, attemptContext))
            } catch {
                outcome = .failure(error)
            }
            guard canRetry, attempt < policy.maxAttempts,
                let delay = RetryRules.delay(
                    after: outcome.map(\.response), policy: policy, retry: attempt, waited: waited, now: Date(),
                    random: random),
                context.end.map({ ContinuousClock.now + delay < $0 }) ?? true
            else {
                var result = try outcome.get()
                result.source = .network(attempts: attempt)
                return result
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
}
