import Foundation

/// Chooses the port the server under test listens on.
///
/// The crash run restarts the server on the same port while clients keep reconnecting to it. A
/// port inside the kernel's ephemeral range could be handed to one of those clients as its own
/// local port, and a connection to 127.0.0.1:P from 127.0.0.1:P "succeeds" as a TCP
/// self-connection, after which the restarted server cannot bind P. Ports below the ephemeral range
/// are never handed out that way.
enum ListenPort {
    /// Where the kernel takes ephemeral ports from.
    static let ephemeralRangeFile = "/proc/sys/net/ipv4/ip_local_port_range"

    /// `count` distinct ports to try, in random order, all below the ephemeral range; `[0]` (let
    /// the server choose) when that range cannot be read or leaves no room below it.
    static func candidates(count: Int) -> [Int] {
        let firstEphemeral = ephemeralRangeStart() ?? 32768
        let lowest = max(10_000, firstEphemeral - 12_000)
        guard firstEphemeral - lowest >= count else { return [0] }
        var chosen: Set<Int> = []
        while chosen.count < count {
            chosen.insert(Int.random(in: lowest..<firstEphemeral))
        }
        return Array(chosen)
    }

    /// The first port of the ephemeral range, read from `/proc` (Linux only).
    static func ephemeralRangeStart() -> Int? {
        guard let text = try? String(contentsOfFile: ephemeralRangeFile, encoding: .utf8) else { return nil }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) }
    }
}
