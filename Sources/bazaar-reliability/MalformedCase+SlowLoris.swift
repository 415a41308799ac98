import BazaarAPI
import Foundation
import ProcessSupport

extension MalformedCase {
    /// Slow-loris attacks while normal requests keep coming: the normal ones must be answered 200
    /// within a second each, the whole time. A connection dripping its request head is closed by
    /// the header timeout; one dripping a body (its head complete) by the body timeout, as its
    /// ten bytes a second earn almost no credit (a slow upload that keeps moving earns enough).
    static let slowLorisCases: [MalformedCase] = [
        slowLoris(
            "slow-loris: 200 connections dripping header bytes",
            SlowLoris(
                connections: 200, duration: .seconds(5), interval: .milliseconds(100), head: Data(),
                drip: Data("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
                    + Data(repeating: UInt8(ascii: "a"), count: 4096)),
            closedBy: { $0.headerTimeout }),
        slowLoris(
            "slow-loris: 50 connections dripping a body",
            SlowLoris(
                connections: 50, duration: .seconds(3), interval: .milliseconds(100),
                head: Data(
                    ("POST \(APIRoutes.login.template) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 60000\r\n\r\n").utf8),
                drip: Data(" ".utf8)),
            closedBy: { $0.bodyTimeout }),
    ]

    /// Holds `attack` open while normal requests keep coming (see ``NormalTraffic``). Every
    /// attacking connection must be closed by the server's timeout that `closedBy` reads from the context (not
    /// before it, and within a second after it).
    static func slowLoris(
        _ name: String, _ attack: SlowLoris, closedBy timeout: @escaping @Sendable (CaseContext) -> Duration,
        bound: Duration = .seconds(1)
    ) -> MalformedCase {
        MalformedCase(name: name, expectation: .judgedByCase) { context in
            async let held = offPool { try attack.hold(port: context.port) }
            // Normal traffic for the length of the attack (less a margin for opening the connections).
            let traffic = try await NormalTraffic(bound: bound).run(
                for: attack.duration - .milliseconds(300), context: context)
            let result = try await held
            var outcome = CaseOutcome()
            let closed = result.closedWhileDripping + result.closedAtEnd
            var closing = closed == 0 ? " (tolerated)" : ""
            if let first = result.closedAfter.min(), let last = result.closedAfter.max() {
                closing = " \(first.secondsText)–\(last.secondsText) after opening"
            }
            outcome.note =
                "\(result.opened) held \(attack.duration.secondsText), server closed \(closed)\(closing); \(traffic.summary)"
            outcome.failure = traffic.failure
            if outcome.failure == nil {
                let early = timeout(context) - .milliseconds(250)
                let late = timeout(context) + .seconds(1)
                if result.closedWhileDripping < result.opened {
                    outcome.failure = "\(result.opened - result.closedWhileDripping) connections outlived the timeout"
                } else if let first = result.closedAfter.min(), first < early {
                    outcome.failure = "a connection was closed after \(first.secondsText), before the timeout"
                } else if let last = result.closedAfter.max(), last > late {
                    outcome.failure = "a connection was closed only after \(last.secondsText)"
                }
            }
            return outcome
        }
    }
}
