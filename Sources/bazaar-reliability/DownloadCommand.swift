import ArgumentParser
import Foundation
import HTTPTypes
import Networking
import NetworkingAsyncHTTPClient

/// `bazaar-reliability download URL --to FILE`: downloads with the kit's AsyncHTTPClient transport
/// and reports the process's peak memory, so a test can see that a large download streams to
/// disk: this process holds nothing but the kit.
struct DownloadCommand: AsyncParsableCommand {
    /// The command's name and help.
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Downloads a URL to a file with the kit and prints its size and this process's peak memory.",
        discussion: """
            Prints one line, `bytes=N peak_rss=M` (M from VmHWM in /proc/self/status, in bytes). A \
            partial file from an earlier cut is resumed. Exits 1 with a one-line reason on failure.
            """
    )

    @Argument(help: "The http(s) URL to download.")
    var url: String

    @Option(help: "Where to save it.")
    var to: String

    func run() async throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, let host = parsed.host() else {
            throw ValidationError("not a URL: \(url)")
        }
        let authority = parsed.port.map { "\(host):\($0)" } ?? host
        let path = parsed.path(percentEncoded: true) + (parsed.query(percentEncoded: true).map { "?" + $0 } ?? "")
        let request = TransportRequest(
            head: HTTPRequest(method: .get, scheme: scheme, authority: authority, path: path.isEmpty ? "/" : path))
        let performer = NetworkRequestPerformer(transport: AsyncHTTPClientTransport(), timeout: .seconds(600))
        let destination = URL(fileURLWithPath: to)
        do {
            try await performer.download(request, to: destination)
        } catch {
            throw ReliabilityFailure("download failed: \(error)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
        print("bytes=\(size) peak_rss=\(Self.peakResidentBytes())")
    }

    /// VmHWM, the most memory this process has held, in bytes (0 where /proc is missing).
    static func peakResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }
}
