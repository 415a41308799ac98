import Foundation
import ProcessSupport

/// Many connections that each send their request a byte at a time and never finish it, held
/// open for a while: the slow-loris attack. Blocking; run it through `offPool`.
struct SlowLoris: Sendable {
    /// Connections held open at once.
    let connections: Int
    /// How long they are held.
    let duration: Duration
    /// The pause between rounds; each round sends every connection one more byte.
    let interval: Duration
    /// Sent at once on each connection when it opens (may be empty).
    let head: Data
    /// Sent one byte per round, over and over.
    let drip: Data

    /// What the server did with the connections.
    struct Result: Sendable {
        /// Connections opened.
        var opened = 0
        /// Connections the server closed while they were dripping.
        var closedWhileDripping = 0
        /// Connections found closed at the end.
        var closedAtEnd = 0
        /// Bytes dripped in all.
        var bytesDripped = 0
        /// For each connection the server closed while dripping, how long after opening it was found closed.
        var closedAfter: [Duration] = []
    }

    /// Opens the connections, drips until `duration` has passed, then checks which the server closed.
    func hold(port: Int) throws -> Result {
        var result = Result()
        var open: [RawHTTP.Connection] = []
        var openedAt: [ContinuousClock.Instant] = []
        for _ in 0..<connections {
            let connection = try RawHTTP.Connection(port: port, timeoutSeconds: 1)
            if !head.isEmpty { try connection.send(head) }
            open.append(connection)
            openedAt.append(.now)
        }
        result.opened = open.count
        var alive = Array(repeating: true, count: open.count)
        let deadline = ContinuousClock.now + duration
        var round = 0
        while ContinuousClock.now < deadline {
            let byte = Data([drip[drip.startIndex + round % drip.count]])
            for (index, connection) in open.enumerated() where alive[index] {
                do {
                    if connection.isClosedByServer() { throw RawHTTP.SocketError(call: "recv", code: ECONNRESET) }
                    try connection.send(byte)
                    result.bytesDripped += 1
                } catch {
                    alive[index] = false
                    result.closedWhileDripping += 1
                    result.closedAfter.append(ContinuousClock.now - openedAt[index])
                }
            }
            round += 1
            Thread.sleep(
                forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
        }
        result.closedAtEnd = open.indices.filter { alive[$0] && open[$0].isClosedByServer() }.count
        return result
    }
}
