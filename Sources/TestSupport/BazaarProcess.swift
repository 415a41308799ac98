import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The real `bazaar-server` executable run as a child process, for restart and crash tests.
public final class BazaarProcess: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns this value, sequentially
    // (start, then kill or terminate, then wait); no other task ever sees it.
    private let process: Process
    /// The URL the server printed it listens on.
    public let baseURL: URL

    /// Errors while starting the executable.
    public enum StartError: Error, CustomStringConvertible {
        /// `bazaar-server` was not found beside the test bundle (build it first).
        case executableNotFound(String)
        /// It exited or printed no URL.
        case noURL(String)

        /// In words.
        public var description: String {
            switch self {
            case .executableNotFound(let path): "bazaar-server not found at \(path); run swift build first"
            case .noURL(let output): "bazaar-server printed no URL: \(output)"
            }
        }
    }

    /// The path of the built `bazaar-server`: `$BAZAAR_SERVER_BINARY`, or beside the test bundle.
    public static func executablePath() -> String {
        if let path = ProcessInfo.processInfo.environment["BAZAAR_SERVER_BINARY"] { return path }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On some platforms the test binary sits inside a bundle (…/X.xctest/Contents/MacOS/X).
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("bazaar-server").path
    }

    /// Starts `bazaar-server --port 0 --sqlite <path> --bcrypt-cost 4` and waits for its URL.
    public init(sqlitePath: String, extraArguments: [String] = []) throws {
        let path = Self.executablePath()
        guard FileManager.default.isExecutableFile(atPath: path) else { throw StartError.executableNotFound(path) }
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--port", "0", "--sqlite", sqlitePath, "--bcrypt-cost", "4", "--log-level", "warning"] + extraArguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let handle = output.fileHandleForReading
        while !text.contains("\n") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "http://"), let url = URL(string: String(text[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw StartError.noURL(text)
        }
        baseURL = url
    }

    /// Kills the process with SIGKILL (no chance to flush anything) and waits for it.
    public func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Sends SIGTERM without waiting.
    public func signalTerminate() {
        kill(process.processIdentifier, SIGTERM)
    }

    /// Waits for the process to exit; returns the exit status.
    public func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends SIGTERM and waits; returns the exit status.
    @discardableResult
    public func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
