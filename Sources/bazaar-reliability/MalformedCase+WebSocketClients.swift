import BazaarAPI
import Foundation
import ProcessSupport

extension MalformedCase {
    /// A socket that never answers the server's pings: it must be pinged, then closed with `1001`
    /// by the second ping interval (plus a second's slack).
    static let unansweredPings = MalformedCase(
        name: "WebSocket: a client that never answers pings", expectation: .judgedByCase
    ) { context in
        try await offPool {
            let socket = try EventSocketProbe.open(context: context)
            let started = ContinuousClock.now
            let limit = context.webSocketPingInterval * 2 + .seconds(1)
            let answer = socket.connection.receive(
                until: {
                    WebSocketFrame.serverFrames(in: socket.remainder + [UInt8]($0)).contains { $0.opcode == 0x8 }
                },
                deadline: started + limit + .seconds(2))
            let took = ContinuousClock.now - started
            let frames = WebSocketFrame.serverFrames(in: socket.remainder + [UInt8](answer.response))
            let pings = frames.filter { $0.opcode == 0x9 }.count
            let close = frames.first { $0.opcode == 0x8 }
            var outcome = CaseOutcome()
            outcome.statuses = [101]
            outcome.closed = answer.closedByServer
            outcome.note =
                "\(pings) ping(s), then close frame \(close?.closeCode.map(String.init) ?? "none") after \(took.secondsText)"
            if pings == 0 {
                outcome.failure = "the server never pinged"
            } else if close?.closeCode != 1001 {
                outcome.failure = "expected a close frame 1001 after the unanswered ping"
            } else if took > limit {
                outcome.failure = "closed only after \(took.secondsText)"
            }
            return outcome
        }
    }

    /// A socket that stops reading while events of about 4 KiB each are sent to it: the server
    /// must cut it once its backlog is full, without its memory growing (its resident size is
    /// measured after `messages` sends with no socket, and again after the cut), and a new socket
    /// must then work.
    ///
    /// How many events it takes depends on the kernel, not the server: the server's send buffer
    /// grows by autotuning (up to `tcp_wmem`'s 4 MiB here) before the server's writer waits at
    /// all. So the case sends in batches, at least `messages` and at most four times that, until
    /// `/metrics` counts no open socket; it then reads the socket to its end, within a deadline,
    /// to see the close from the client's side. (Reading before the cut would make it a reader.)
    static func slowReader(messages: Int) -> MalformedCase {
        MalformedCase(name: "WebSocket: a client that stops reading, \(messages)+ events", expectation: .judgedByCase) {
            context in
            try await offPool {
                // The same writes once without the socket, so the database's own growth is in the baseline.
                try EventSocketProbe.sendMessages(messages, context: context)
                let before = ProcessMemory.residentBytes(of: context.serverPID)
                let slow = try EventSocketProbe.open(context: context, receiveBufferSize: 4096)
                var sent = 0
                var gone = false
                while !gone && sent < 4 * messages {
                    let batch = sent < messages ? messages : messages / 4
                    try EventSocketProbe.sendMessages(batch, context: context)
                    sent += batch
                    gone = try EventSocketProbe.openSockets(context: context, within: .milliseconds(500)) == 0
                }
                let after = ProcessMemory.residentBytes(of: context.serverPID)
                let cut = gone && slow.connection.waitUntilClosedByServer(deadline: .now + .seconds(10))
                let again = try EventSocketProbe.open(context: context)
                let ready =
                    WebSocketFrame.serverFrames(
                        in: again.remainder
                            + [UInt8](
                                again.connection.receive(until: {
                                    WebSocketFrame.serverFrames(in: again.remainder + [UInt8]($0)).count >= 1
                                }).response)
                    )
                    .first.map { String(decoding: $0.payload, as: UTF8.self).contains(#""type":"ready""#) } ?? false

                var outcome = CaseOutcome()
                outcome.statuses = [101]
                outcome.closed = cut
                let growth = (after ?? 0) - (before ?? 0)
                outcome.note =
                    "\(cut ? "cut" : "still open") after \(sent) events; server RSS \((before ?? 0) >> 20) MiB before, "
                    + "\((after ?? 0) >> 20) MiB after (\(growth >= 0 ? "+" : "")\(growth >> 10) KiB); "
                    + "a new socket \(ready ? "got ready" : "did not get ready")"
                if !gone {
                    outcome.failure = "the server kept a socket that stopped reading through \(sent) events"
                } else if !cut {
                    outcome.failure = "the server dropped the socket but the client never saw it closed"
                } else if before == nil || after == nil {
                    outcome.failure = "could not read the server's resident size"
                } else if growth > 16 << 20 {
                    outcome.failure = "the server's memory grew by \(growth >> 20) MiB"
                } else if !ready {
                    outcome.failure = "a new socket after the cut did not work"
                }
                return outcome
            }
        }
    }
}

/// Raw `/v1/events` sockets and message sends for the WebSocket client cases. Blocking: use in `offPool`.
enum EventSocketProbe {
    /// An upgraded socket and the bytes that came after the `101`.
    struct Socket {
        let connection: RawHTTP.Connection
        let remainder: [UInt8]
    }

    /// Upgrades `/v1/events` with the context's token.
    static func open(context: CaseContext, receiveBufferSize: Int? = nil) throws -> Socket {
        try open(port: context.port, token: context.token, receiveBufferSize: receiveBufferSize)
    }

    /// Upgrades `/v1/events` on `port` with `token`.
    static func open(port: Int, token: String, receiveBufferSize: Int? = nil) throws -> Socket {
        let connection = try RawHTTP.Connection(port: port, timeoutSeconds: 5, receiveBufferSize: receiveBufferSize)
        try connection.send(WebSocketFrame.handshake(path: APIRoutes.events.template, token: token, inQuery: false))
        let handshake = connection.receive(until: { HTTPResponseStream($0).hasComplete(1) })
        guard let remainder = HTTPResponseStream(handshake.response).upgradedRemainder else {
            throw ReliabilityFailure("the event socket was not upgraded")
        }
        return Socket(connection: connection, remainder: remainder)
    }

    /// Sends `count` messages of 4 000 characters in the context's conversation, one at a time on one connection.
    /// The server's count of open event sockets (`bazaar_live_sockets` in `/metrics`), read until it
    /// is 0 or `within` has passed; the last count read.
    static func openSockets(context: CaseContext, within limit: Duration) throws -> Int {
        let deadline = ContinuousClock.now + limit
        while true {
            let connection = try RawHTTP.Connection(port: context.port, timeoutSeconds: 5)
            try connection.send(Data("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            let answer = HTTPResponseStream(
                connection.receive(until: { HTTPResponseStream($0).hasComplete(1) }).response)
            guard let body = answer.responses.first.map({ String(decoding: $0.body, as: UTF8.self) }),
                let line = body.split(separator: "\n").first(where: { $0.hasPrefix("bazaar_live_sockets ") }),
                let count = line.split(separator: " ").last.flatMap({ Double($0) }).map({ Int($0) })
            else { throw ReliabilityFailure("/metrics did not report bazaar_live_sockets") }
            if count == 0 || ContinuousClock.now >= deadline { return count }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    static func sendMessages(_ count: Int, context: CaseContext) throws {
        let connection = try RawHTTP.Connection(port: context.port, timeoutSeconds: 5)
        let path = APIRoutes.sendMessage.path(context.conversationID)
        let body = Data(#"{"body":"\#(String(repeating: "m", count: 4000))"}"#.utf8)
        for _ in 0..<count {
            let head =
                "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(context.token)\r\n"
                + "Content-Type: application/json\r\nIdempotency-Key: \(UUID().uuidString)\r\nContent-Length: \(body.count)\r\n\r\n"
            try connection.send(Data(head.utf8) + body)
            let answer = HTTPResponseStream(
                connection.receive(until: { HTTPResponseStream($0).hasComplete(1) }).response)
            guard answer.responses.first?.status == 201 else {
                throw ReliabilityFailure(
                    "a message send was answered \(answer.responses.first.map { String($0.status) } ?? "nothing")")
            }
        }
    }
}

/// A process's memory as Linux reports it.
enum ProcessMemory {
    /// The resident set size of process `pid` (`VmRSS` in `/proc/<pid>/status`), or `nil` when unreadable.
    static func residentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes << 10
    }
}
