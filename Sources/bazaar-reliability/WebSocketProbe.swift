import BazaarAPI
import Foundation
import ProcessSupport

/// Opens `/v1/events` with a valid token, then sends raw bytes on the socket and watches what
/// the server does, with every blocking call off Swift's cooperative pool.
enum WebSocketProbe {
    /// What to do after sending the bytes.
    enum Then: Sendable {
        /// Close the connection at once (a client that vanished mid-frame).
        case hangUp
        /// Wait for the server to close the socket (a close frame, or the TCP connection); a
        /// failure when it keeps it open.
        case expectClose
        /// Wait for a close frame with this code; a failure when another code or none comes.
        case expectCloseCode(Int)
        /// Wait for a close, and report (without failing) when it does not come.
        case observe
    }

    /// Upgrades (token in the query or in `Authorization`), sends `bytes`, then does `then`.
    static func run(_ bytes: Data, context: CaseContext, tokenInQuery: Bool, then: Then) async throws -> CaseOutcome {
        try await offPool {
            let connection = try RawHTTP.Connection(port: context.port, timeoutSeconds: 2)
            try connection.send(
                WebSocketFrame.handshake(path: APIRoutes.events.template, token: context.token, inQuery: tokenInQuery))
            let handshake = connection.receive(until: { HTTPResponseStream($0).hasComplete(1) })
            let stream = HTTPResponseStream(handshake.response)
            var outcome = CaseOutcome()
            outcome.statuses = stream.responses.map(\.status)
            guard let remainder = stream.upgradedRemainder else {
                outcome.closed = handshake.closedByServer
                outcome.failure = "the upgrade was not accepted"
                return outcome
            }
            do {
                try connection.send(bytes)
            } catch let error as RawHTTP.SocketError {
                outcome.note = "send cut short (\(error))"
            }
            if case .hangUp = then {
                outcome.note = outcome.note ?? "we hung up"
                return outcome
            }
            let deadline = ContinuousClock.now + .seconds(3)
            let answer = connection.receive(
                until: { received in
                    WebSocketFrame.serverFrames(in: remainder + [UInt8](received)).contains { $0.opcode == 0x8 }
                }, deadline: deadline)
            let frames = WebSocketFrame.serverFrames(in: remainder + [UInt8](answer.response))
            outcome.closed = answer.closedByServer
            let close = frames.first(where: { $0.opcode == 0x8 })
            if let close {
                outcome.note = "close frame \(close.closeCode.map(String.init) ?? "without a code")"
            }
            if case .expectCloseCode(let code) = then, close?.closeCode != code {
                outcome.failure = "expected a close frame \(code)"
            } else if close == nil, !answer.closedByServer {
                if case .expectClose = then {
                    outcome.note = "socket left open"
                    outcome.failure = "the server kept the socket open"
                } else {
                    outcome.note = "socket left open (tolerated)"
                }
            }
            return outcome
        }
    }
}
