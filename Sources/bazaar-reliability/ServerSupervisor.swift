import Foundation
import ProcessSupport

/// Owns the `bazaar-server` child process of a run: its temporary folder (the SQLite file, the
/// signing key, the server's standard error), its port, and the SIGKILL-and-restart cycle.
///
/// An actor, so the process is only ever touched by one call at a time; the blocking calls (start,
/// kill and wait) run off Swift's cooperative pool.
actor ServerSupervisor {
    /// The folder holding the database, the signing key and `server.log`.
    let directory: URL
    /// The `bazaar-server` executable.
    let executablePath: String
    /// The port the server listens on, kept across restarts.
    let port: Int
    /// Where the server listens.
    let baseURL: URL
    /// The current server process.
    private var process: BazaarProcess

    /// The SQLite file.
    var databasePath: String { directory.appendingPathComponent("bazaar.sqlite").path }
    /// The file the server's standard error goes to.
    var logPath: String { directory.appendingPathComponent("server.log").path }

    /// Starts `bazaar-server` on a new temporary database, on a port below the ephemeral range
    /// (see ``ListenPort``), trying another port when one is taken.
    static func start(executablePath: String) async throws -> ServerSupervisor {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bazaar-reliability-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = directory.appendingPathComponent("bazaar.sqlite").path
        let log = directory.appendingPathComponent("server.log").path
        var lastError: (any Error)?
        for port in ListenPort.candidates(count: 8) {
            do {
                let process = try await offPool {
                    try BazaarProcess(sqlitePath: database, port: port, executablePath: executablePath, standardErrorPath: log)
                }
                return ServerSupervisor(directory: directory, executablePath: executablePath, process: process)
            } catch let error as BazaarProcess.StartError {
                if case .executableNotFound = error { throw error }
                lastError = error
            }
        }
        throw lastError ?? ReliabilityFailure("bazaar-server did not start")
    }

    /// Takes over a started process.
    private init(directory: URL, executablePath: String, process: BazaarProcess) {
        self.directory = directory
        self.executablePath = executablePath
        self.process = process
        port = process.port
        baseURL = process.baseURL
    }

    /// Whether the server process is still alive.
    var isRunning: Bool { process.isRunning }

    /// Kills the server with SIGKILL and starts it again on the same port and database; returns
    /// how long that took, from the kill to the new process printing its URL.
    func killAndRestart() async throws -> Duration {
        let started = ContinuousClock.now
        let old = process
        try await offPool { old.kill9() }
        var attempt = 0
        while true {
            attempt += 1
            do {
                let (database, port, executable, log) = (databasePath, port, executablePath, logPath)
                process = try await offPool {
                    try BazaarProcess(sqlitePath: database, port: port, executablePath: executable, standardErrorPath: log)
                }
                return ContinuousClock.now - started
            } catch where attempt < 20 {
                // The port may be released a moment after the old process is reaped.
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Stops the server with SIGTERM, and removes the temporary folder when `keepFiles` is false.
    func stop(keepFiles: Bool) async {
        let current = process
        _ = try? await offPool { current.terminate() }
        if !keepFiles {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The error and critical lines the server logged, without their timestamps, each with how
    /// often it was logged, most frequent first.
    func loggedErrors() -> [(line: String, count: Int)] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, fields[1].hasPrefix("error ") || fields[1].hasPrefix("critical ") else { continue }
            counts[String(fields[1]), default: 0] += 1
        }
        return counts.map { (line: $0.key, count: $0.value) }.sorted { $0.count > $1.count }
    }

    /// The last lines the server wrote to standard error (a crash report, say).
    func logTail(lines: Int = 5) -> String {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "" }
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}
