import BazaarAPI
import Foundation
import ProcessSupport

extension MalformedCase {
    /// Slow-loris attacks while normal requests keep coming: the normal ones must be answered 200
    /// within a second each, the whole time.
    static let slowLorisCases: [MalformedCase] = [
        slowLoris(
            "slow-loris: 200 connections dripping header bytes",
            SlowLoris(
                connections: 200, duration: .seconds(5), interval: .milliseconds(100), head: Data(),
                drip: Data("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8) + Data(repeating: UInt8(ascii: "a"), count: 4096))),
        slowLoris(
            "slow-loris: 50 connections dripping a body",
            SlowLoris(
                connections: 50, duration: .seconds(3), interval: .milliseconds(100),
                head: Data(
                    ("POST \(APIRoutes.login.template) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 60000\r\n\r\n").utf8),
                drip: Data(" ".utf8))),
    ]

    /// Holds `attack` open while a normal GET /health and GET /v1/users/me go out every 100 ms.
    static func slowLoris(_ name: String, _ attack: SlowLoris, bound: Duration = .seconds(1)) -> MalformedCase {
        MalformedCase(name: name, expectation: .judgedByCase) { context in
            let started = ContinuousClock.now
            async let held = offPool { try attack.hold(port: context.port) }
            var served = 0
            var slowest = Duration.zero
            var problems: [String] = []
            // Normal traffic for the length of the attack (less a margin for opening the connections).
            while ContinuousClock.now - started < attack.duration - .milliseconds(300) {
                for path in [APIRoutes.health.template, APIRoutes.me.template] {
                    let sent = ContinuousClock.now
                    let answer = try await RawProbe.request(
                        "GET \(path) HTTP/1.1\r\nAuthorization: Bearer \(context.token)", port: context.port, timeoutSeconds: 2)
                    let took = ContinuousClock.now - sent
                    slowest = max(slowest, took)
                    if answer.statuses.first == 200, took <= bound {
                        served += 1
                    } else if problems.count < 3 {
                        problems.append("\(path): \(answer.summary) after \(took.secondsText)")
                    }
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            let result = try await held
            var outcome = CaseOutcome()
            let tolerated = result.closedWhileDripping + result.closedAtEnd == 0
            outcome.note =
                "\(result.opened) held \(attack.duration.secondsText), server closed "
                + "\(result.closedWhileDripping + result.closedAtEnd)\(tolerated ? " (tolerated)" : ""); "
                + "\(served) normal requests answered 200, slowest \(slowest.wholeMilliseconds) ms"
            if !problems.isEmpty {
                outcome.failure = "normal requests not served within \(bound.secondsText): \(problems.joined(separator: "; "))"
            } else if served == 0 {
                outcome.failure = "no normal request was made"
            }
            return outcome
        }
    }
}
