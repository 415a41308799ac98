import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The real `bazaar-server` executable run as a child process, for restart and crash runs.
public final class BazaarProcess: Sendable {
    private let process: ChildProcess
    /// The URL the server printed it listens on.
    public let baseURL: URL
    /// The port it listens on.
    public let port: Int

    /// Errors while starting the executable.
    public enum StartError: Error, CustomStringConvertible {
        /// `bazaar-server` was not found at the path (build it first).
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

    /// The path of the built `bazaar-server`: `$BAZAAR_SERVER_BINARY`, or beside the running
    /// executable (the test bundle, or a tool built in the same folder).
    public static func executablePath() -> String {
        if let path = ProcessInfo.processInfo.environment["BAZAAR_SERVER_BINARY"] { return path }
        var directory = runningExecutable().deletingLastPathComponent()
        // On some platforms the test binary sits inside a bundle (…/X.xctest/Contents/MacOS/X).
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("bazaar-server").path
    }

    /// The running executable: `/proc/self/exe` where there is one (so a program started through
    /// `PATH` is found too), else the first command-line argument.
    private static func runningExecutable() -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// Starts `bazaar-server --port <port> --sqlite <path> --bcrypt-cost 4` and waits for its URL.
    ///
    /// - Parameters:
    ///   - port: the port to listen on; 0 (the default) lets the server pick a free one.
    ///   - executablePath: the `bazaar-server` to run; ``executablePath()`` by default.
    ///   - standardErrorPath: a file the server's standard error is appended to (its logs, a crash
    ///     report); discarded when `nil`.
    ///   - bcryptCost: 4 (the minimum) keeps registration fast; 10 is the server's own default.
    ///
    /// Blocks until the server prints its URL or exits; call it through ``offPool(_:)`` from async code.
    public convenience init(
        sqlitePath: String, port: Int = 0, executablePath: String = BazaarProcess.executablePath(),
        standardErrorPath: String? = nil, bcryptCost: Int = 4, extraArguments: [String] = []
    ) throws {
        try self.init(
            databaseArguments: ["--sqlite", sqlitePath], environment: [:], port: port, executablePath: executablePath,
            standardErrorPath: standardErrorPath, bcryptCost: bcryptCost, extraArguments: extraArguments)
    }

    /// Starts `bazaar-server --postgres <url>` as one replica, with `BAZAAR_SIGNING_KEY` set to
    /// `signingKey` (base64; every replica of one database needs the same), and waits for its URL.
    /// `environment` adds variables of its own (`OTEL_*`, say).
    public convenience init(
        postgresURL: String, signingKey: String, port: Int = 0, executablePath: String = BazaarProcess.executablePath(),
        standardErrorPath: String? = nil, bcryptCost: Int = 4, environment: [String: String] = [:],
        extraArguments: [String] = []
    ) throws {
        try self.init(
            databaseArguments: ["--postgres", postgresURL],
            environment: environment.merging(["BAZAAR_SIGNING_KEY": signingKey]) { _, key in key }, port: port,
            executablePath: executablePath, standardErrorPath: standardErrorPath, bcryptCost: bcryptCost,
            extraArguments: extraArguments)
    }

    private init(
        databaseArguments: [String], environment: [String: String], port: Int, executablePath: String,
        standardErrorPath: String?, bcryptCost: Int, extraArguments: [String]
    ) throws {
        guard FileManager.default.isExecutableFile(atPath: executablePath) else {
            throw StartError.executableNotFound(executablePath)
        }
        process = try ChildProcess(
            executable: executablePath,
            arguments: ["--port", String(port)] + databaseArguments
                + ["--bcrypt-cost", String(bcryptCost), "--log-level", "warning"] + extraArguments,
            addingToEnvironment: environment, standardOutput: .pipe,
            standardError: standardErrorPath.map { .appending(toFile: $0) } ?? .null)
        var text = ""
        while !text.contains("\n"), let handle = process.standardOutput {
            let chunk = PipeReading.readAvailable(handle)
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "http://"),
            let url = URL(string: String(text[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)),
            let port = url.port
        else {
            process.terminate()
            process.waitUntilExit()
            throw StartError.noURL(text)
        }
        baseURL = url
        self.port = port
    }

    /// Whether the process is still running (it has not crashed or been stopped).
    public var isRunning: Bool { process.isRunning }

    /// The child's process id (to read its CPU time, say).
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Kills the process with SIGKILL (no chance to flush anything) and waits for it.
    public func kill9() {
        process.send(SIGKILL)
        process.waitUntilExit()
    }

    /// Sends SIGTERM without waiting.
    public func signalTerminate() {
        process.terminate()
    }

    /// Waits for the process to exit; returns its exit code (128 plus the signal that ended it).
    public func waitForExit() -> Int32 {
        process.waitUntilExit()
    }

    /// Sends SIGTERM and waits; returns the exit code.
    @discardableResult
    public func terminate() -> Int32 {
        process.terminate()
        return process.waitUntilExit()
    }
}
