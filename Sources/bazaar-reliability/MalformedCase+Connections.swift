import BazaarAPI
import Foundation
import ProcessSupport

extension MalformedCase {
    /// Connections held without being used, and more connections than one address may hold.
    static let connectionCases: [MalformedCase] = [idleKeepAlives(1000), pastTheCap]

    private static let healthRequest = Data("GET \(APIRoutes.health.template) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)

    /// `count` connections, spread over loopback addresses below the per-address cap, each
    /// answered one request and then left idle: every one must be closed by the idle timeout
    /// (not before it, and within 1.5 s after it) while normal requests keep being served.
    static func idleKeepAlives(_ count: Int) -> MalformedCase {
        MalformedCase(name: "\(count) idle keep-alive connections", expectation: .judgedByCase) { context in
            let perAddress = max(1, context.connectionCap - 6)
            async let held = offPool { () -> (answered: Int, closedAfter: [Duration]) in
                var connections: [RawHTTP.Connection] = []
                var answeredAt: [ContinuousClock.Instant] = []
                for index in 0..<count {
                    let connection = try RawHTTP.Connection(
                        port: context.port, timeoutSeconds: 2, sourceAddress: "127.0.1.\(1 + index / perAddress)")
                    try connection.send(healthRequest)
                    guard
                        HTTPResponseStream(
                            connection.receive(until: { HTTPResponseStream($0).hasComplete(1) }).response
                        )
                        .responses.first?.status == 200
                    else { continue }
                    connections.append(connection)
                    answeredAt.append(.now)
                }
                var closedAfter: [Duration?] = Array(repeating: nil, count: connections.count)
                let deadline = ContinuousClock.now + context.idleTimeout + .seconds(4)
                while closedAfter.contains(where: { $0 == nil }), ContinuousClock.now < deadline {
                    for (index, connection) in connections.enumerated() where closedAfter[index] == nil {
                        if connection.isClosedByServer() {
                            closedAfter[index] = ContinuousClock.now - answeredAt[index]
                        }
                    }
                    Thread.sleep(forTimeInterval: 0.05)
                }
                return (connections.count, closedAfter.compactMap { $0 })
            }
            let traffic = try await NormalTraffic(bound: .seconds(1)).run(
                for: context.idleTimeout + .seconds(1), context: context)
            let (answered, closedAfter) = try await held
            var outcome = CaseOutcome()
            var closing = ""
            if let first = closedAfter.min(), let last = closedAfter.max() {
                closing = " \(first.secondsText)–\(last.secondsText) after their answer"
            }
            outcome.note =
                "\(answered) answered then idle, server closed \(closedAfter.count)\(closing); \(traffic.summary)"
            if answered < count {
                outcome.failure = "only \(answered) of \(count) connections were answered"
            } else if closedAfter.count < answered {
                outcome.failure = "\(answered - closedAfter.count) idle connections were never closed"
            } else if let first = closedAfter.min(), first < context.idleTimeout - .milliseconds(250) {
                outcome.failure = "a connection was closed after \(first.secondsText) idle, before the idle timeout"
            } else if let last = closedAfter.max(), last > context.idleTimeout + .milliseconds(1500) {
                outcome.failure = "a connection was closed only after \(last.secondsText) idle"
            } else {
                outcome.failure = traffic.failure
            }
            return outcome
        }
    }

    /// As many connections from one address as the cap allows, each answered; then one more,
    /// which must be answered 429 with `Retry-After`, while another address is still served.
    static let pastTheCap = MalformedCase(name: "one connection past the per-address cap", expectation: .judgedByCase) {
        context in
        try await offPool {
            var held: [RawHTTP.Connection] = []
            for _ in 0..<context.connectionCap {
                let connection = try RawHTTP.Connection(
                    port: context.port, timeoutSeconds: 2, sourceAddress: "127.0.2.1")
                try connection.send(healthRequest)
                _ = connection.receive(until: { HTTPResponseStream($0).hasComplete(1) })
                held.append(connection)
            }
            let extra = try RawHTTP.Connection(port: context.port, timeoutSeconds: 2, sourceAddress: "127.0.2.1")
            try? extra.send(healthRequest)
            let refused = extra.receiveAll()
            let other = try RawHTTP.Connection(port: context.port, timeoutSeconds: 2, sourceAddress: "127.0.2.2")
            try other.send(healthRequest)
            let otherAnswer = HTTPResponseStream(
                other.receive(until: { HTTPResponseStream($0).hasComplete(1) }).response)
            withExtendedLifetime(held) {}

            let stream = HTTPResponseStream(refused.response)
            var outcome = CaseOutcome()
            outcome.statuses = stream.responses.map(\.status)
            outcome.errorCode = stream.responses.first?.errorCode
            outcome.closed = refused.closedByServer
            let retryAfter = stream.responses.first?.headers["retry-after"]
            outcome.note =
                "\(held.count) held; Retry-After \(retryAfter ?? "missing"); another address answered \(otherAnswer.responses.first.map { String($0.status) } ?? "nothing")"
            if outcome.statuses.first != 429 || outcome.errorCode != "too_many_connections" {
                outcome.failure = "the connection past the cap was not answered 429 too_many_connections"
            } else if retryAfter == nil {
                outcome.failure = "the 429 has no Retry-After"
            } else if otherAnswer.responses.first?.status != 200 {
                outcome.failure = "another address was not served"
            }
            return outcome
        }
    }
}
