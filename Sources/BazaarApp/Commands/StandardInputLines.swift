import BazaarAPI
import ConsoleKitTerminal
import Foundation
import TerminalUI

/// Lines typed on standard input as an async stream, read on a thread of their own so a blocked
/// read never holds a thread of Swift's cooperative pool.
enum StandardInputLines {
    /// The lines from now on; the stream ends at the end of input.
    static func stream() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        thread.name = "bazaar.stdin"
        thread.start()
        return stream
    }
}
