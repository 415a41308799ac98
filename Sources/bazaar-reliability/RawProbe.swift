import Foundation
import ProcessSupport

/// Sends raw bytes to the server over a fresh TCP connection and reports what came back, with
/// every blocking call off Swift's cooperative pool.
enum RawProbe {
    /// The size of the slices a request is sent in; between slices the probe looks for an early answer.
    static let sliceSize = 64 * 1024

    /// Sends `bytes` and reads until `responses` complete answers arrived, the server closed the
    /// connection, or `timeoutSeconds` of silence. With `awaitClose` (the request said
    /// `Connection: close`), also waits for the server to close the connection after its answer.
    ///
    /// A large request is sent in slices and stops early once the server has answered (a 413
    /// before the whole body, say), as an HTTP client does; a send the server cuts short by
    /// closing is not an error either. What it answered is read all the same.
    static func send(
        _ bytes: Data, port: Int, responses: Int = 1, awaitClose: Bool = false, timeoutSeconds: Int = 3
    ) async throws -> CaseOutcome {
        try await offPool {
            let connection = try RawHTTP.Connection(port: port, timeoutSeconds: timeoutSeconds)
            var note: String?
            var offset = 0
            do {
                while offset < bytes.count {
                    if offset > 0, connection.hasBytesToRead() {
                        note = "answered after \(offset >> 10) KiB of \(bytes.count >> 10) KiB sent"
                        break
                    }
                    let end = min(offset + sliceSize, bytes.count)
                    try connection.send(bytes[offset..<end])
                    offset = end
                }
            } catch let error as RawHTTP.SocketError {
                note = "send cut short after \(offset >> 10) KiB (\(error))"
            }
            let deadline = ContinuousClock.now + .seconds(timeoutSeconds * 3)
            var exchange = connection.receive(
                until: { HTTPResponseStream($0).hasComplete(responses) }, deadline: deadline)
            var stream = HTTPResponseStream(exchange.response)
            if !exchange.closedByServer, awaitClose || stream.responses.last?.closesConnection == true {
                // The connection is to end after this answer: check that the server ends it.
                let rest = connection.receiveAll()
                exchange = RawHTTP.Exchange(
                    response: exchange.response + rest.response, closedByServer: rest.closedByServer)
                stream = HTTPResponseStream(exchange.response)
            }
            var outcome = CaseOutcome()
            outcome.statuses = stream.responses.map(\.status)
            outcome.errorCode = stream.responses.last?.errorCode
            outcome.closed = exchange.closedByServer
            outcome.silent = !exchange.closedByServer && !stream.hasComplete(responses)
            outcome.note = note
            return outcome
        }
    }

    /// Sends `head` (a request line and header fields, without the blank line) plus `body`, with
    /// `Content-Length` set and `Connection: close`.
    static func request(_ head: String, body: Data = Data(), port: Int, timeoutSeconds: Int = 3) async throws
        -> CaseOutcome
    {
        var text = head.hasSuffix("\r\n") ? head : head + "\r\n"
        text += "Host: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n"
        return try await send(Data(text.utf8) + body, port: port, awaitClose: true, timeoutSeconds: timeoutSeconds)
    }
}
