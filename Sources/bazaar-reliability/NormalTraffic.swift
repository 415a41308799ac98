import BazaarAPI
import Foundation

/// Ordinary requests (GET /health and GET /v1/users/me, every 100 ms) sent while a case attacks
/// the server, each of which must be answered 200 within `bound`.
struct NormalTraffic {
    /// The longest a normal request may take.
    let bound: Duration

    /// What the normal requests met.
    struct Report {
        /// Requests answered 200 within the bound.
        var served = 0
        /// The slowest answer.
        var slowest = Duration.zero
        /// Up to three requests that were not served in time, described.
        var problems: [String] = []

        /// `…; 48 normal requests answered 200, slowest 12 ms`.
        var summary: String { "\(served) normal requests answered 200, slowest \(slowest.wholeMilliseconds) ms" }

        /// Why normal service failed, or `nil` when it held.
        var failure: String? {
            if !problems.isEmpty { return "normal requests not served in time: \(problems.joined(separator: "; "))" }
            if served == 0 { return "no normal request was made" }
            return nil
        }
    }

    /// Sends normal requests until `duration` has passed.
    func run(for duration: Duration, context: CaseContext) async throws -> Report {
        let started = ContinuousClock.now
        var report = Report()
        while ContinuousClock.now - started < duration {
            for path in [APIRoutes.health.template, APIRoutes.me.template] {
                let sent = ContinuousClock.now
                let answer = try await RawProbe.request(
                    "GET \(path) HTTP/1.1\r\nAuthorization: Bearer \(context.token)", port: context.port,
                    timeoutSeconds: 2)
                let took = ContinuousClock.now - sent
                report.slowest = max(report.slowest, took)
                if answer.statuses.first == 200, took <= bound {
                    report.served += 1
                } else if report.problems.count < 3 {
                    report.problems.append("\(path): \(answer.summary) after \(took.secondsText)")
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return report
    }
}
