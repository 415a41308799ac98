import ArgumentParser
import AsyncHTTPClient
import BazaarAPI
import BenchSupport
import Foundation
import Logging
import NIOCore
import Synchronization
import WSClient

#if canImport(Glibc)
    import Glibc
#endif

/// How busy the server and this tool were while the messages were being sent.
struct CPUShare: Sendable, CustomStringConvertible {
    /// Server CPU seconds in the window (`nil` for a server not started here).
    let server: Double?
    /// This process's CPU seconds in the window (sockets, frame decoding, HTTP sends).
    let own: Double?
    /// The window in seconds.
    let window: Double
    /// Messages sent in the window (warm-up included).
    let messages: Int

    /// One line: each side's share of one core and the server's CPU per message.
    var description: String {
        func share(_ seconds: Double?) -> String {
            seconds.map { String(format: "%.0f%% of a core", $0 / Swift.max(window, 1e-9) * 100) } ?? "unknown"
        }
        var line = "CPU while sending: bazaar-server \(share(server)), fanout itself \(share(own))"
        if let server, messages > 0 {
            line += String(format: "; server %.0f µs per message", server / Double(messages) * 1e6)
        }
        return line
    }
}
