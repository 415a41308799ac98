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
    /// The wall clock a `Retry-After` date is read against.
    let now: @Sendable () -> Date
    /// The transport stage.
    let next: Next

    /// Makes attempts until one is final, the policy says stop, or the deadline would be crossed:
    /// the decisions are ``RetrySchedule``'s; this sends, waits and reads the clock.
    func exchange(_ request: consuming TransportRequest, _ context: ExchangeContext) async throws(NetworkError)
        -> ExchangeResult
    {
        var schedule = RetrySchedule(
            policy: context.retryPolicy, mayRetry: RetryRules.mayRetry(request),
            attemptTimeout: context.transfer.timeout)
        var attemptContext = context
        context.events?.emit(.adapted(request.head))
        while true {
            switch schedule.beforeAttempt(left: context.end.map { $0 - .now }) {
            case .attempt(let timeout): attemptContext.transfer.timeout = timeout
            default: throw .timedOut
            }
            let outcome: Result<ExchangeResult, NetworkError>
            context.events?.attempts.add()
            do {
                outcome = .success(try await next.exchange(copy request, attemptContext))
            } catch {
                outcome = .failure(error)
            }
            let step = schedule.afterAttempt(
                outcome.map(\.response), left: context.end.map { $0 - .now }, now: now(), random: random)
            guard case .wait(let delay) = step else {
                var result = try outcome.get()
                result.source = .network(attempts: schedule.attempt)
                return result
            }
            if let events = context.events {
                let reason: RetryReason =
                    switch outcome {
                    case .success(let result): .status(result.response.status.code)
                    case .failure(let error): .failure(error)
                    }
                events.emit(.retrying(attempt: schedule.attempt - 1, reason: reason, delay: delay))
            }
            logger.debug(
                "retrying request",
                metadata: [
                    "method": "\(request.head.method.rawValue)",
                    "path": "\(Redaction.path(request.head.path ?? ""))",
                    "attempt": "\(schedule.attempt)",
                    "delay_ms": "\(delay.milliseconds)",
                ])
            do {
                try await sleep(delay)
            } catch {
                throw .cancelled
            }
        }
    }
}
