import Foundation
import ProcessSupport

/// Owns the `bazaar-server` child processes of a run: one on SQLite, or several replicas on one
/// PostgreSQL database; its temporary folder (the SQLite file, the signing key, the servers'
/// standard error), their ports, and the SIGKILL-and-restart cycle.
///
/// An actor, so the processes are only ever touched by one call at a time; the blocking calls
/// (start, kill and wait) run off Swift's cooperative pool.
actor ServerSupervisor {
    /// Where the servers keep their data.
    enum Database: Sendable {
        /// One server on a SQLite file in the run's folder.
        case sqlite
        /// `replicas` servers on this PostgreSQL URL, signing with one key.
        case postgres(url: String, replicas: Int)
    }

    /// The folder holding the database, the signing key and `server.log`.
    let directory: URL
    /// The `bazaar-server` executable.
    let executablePath: String
    /// Where the data lives.
    let database: Database
    /// The key every replica signs with (PostgreSQL only).
    private let signingKey: String
    /// Options every server (and every restart) gets beyond the database and port.
    private let extraArguments: [String]
    /// The ports the servers listen on, kept across restarts.
    let ports: [Int]
    /// Where each server listens.
    let baseURLs: [URL]
    /// The current server processes, one per port.
    private var processes: [BazaarProcess]
    /// The replica the next kill hits.
    private var nextVictim = 0

    /// The first server's port.
    nonisolated var port: Int { ports[0] }
    /// The first server's URL.
    nonisolated var baseURL: URL { baseURLs[0] }

    /// The SQLite file, or the PostgreSQL URL.
    var databasePath: String {
        switch database {
        case .sqlite: directory.appendingPathComponent("bazaar.sqlite").path
        case .postgres(let url, _): url
        }
    }
    /// The file the server's standard error goes to.
    var logPath: String { directory.appendingPathComponent("server.log").path }

    /// Starts the servers on a new temporary folder, each on a port below the ephemeral range
    /// (see ``ListenPort``), trying another port when one is taken.
    static func start(
        executablePath: String, database: Database = .sqlite, extraArguments: [String] = []
    ) async throws -> ServerSupervisor {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bazaar-reliability-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let signingKey = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
        let count: Int
        switch database {
        case .sqlite: count = 1
        case .postgres(_, let replicas): count = replicas
        }
        var processes: [BazaarProcess] = []
        var candidates = ListenPort.candidates(count: 8 * count)
        while processes.count < count {
            guard let port = candidates.popLast() else { throw ReliabilityFailure("bazaar-server did not start") }
            do {
                processes.append(
                    try await launch(
                        database, index: processes.count, port: port, directory: directory,
                        executablePath: executablePath,
                        signingKey: signingKey, extraArguments: extraArguments))
            } catch let error as BazaarProcess.StartError {
                if case .executableNotFound = error { throw error }
                if candidates.isEmpty { throw error }
            }
        }
        return ServerSupervisor(
            directory: directory, executablePath: executablePath, database: database, signingKey: signingKey,
            extraArguments: extraArguments, processes: processes)
    }

    /// Starts server `index` on `port`.
    private static func launch(
        _ database: Database, index: Int, port: Int, directory: URL, executablePath: String, signingKey: String,
        extraArguments: [String]
    ) async throws -> BazaarProcess {
        let log = directory.appendingPathComponent(index == 0 ? "server.log" : "server-\(index).log").path
        switch database {
        case .sqlite:
            let path = directory.appendingPathComponent("bazaar.sqlite").path
            return try await offPool {
                try BazaarProcess(
                    sqlitePath: path, port: port, executablePath: executablePath, standardErrorPath: log,
                    extraArguments: extraArguments)
            }
        case .postgres(let url, _):
            return try await offPool {
                try BazaarProcess(
                    postgresURL: url, signingKey: signingKey, port: port, executablePath: executablePath,
                    standardErrorPath: log,
                    extraArguments: extraArguments)
            }
        }
    }

    /// Takes over started processes.
    private init(
        directory: URL, executablePath: String, database: Database, signingKey: String, extraArguments: [String],
        processes: [BazaarProcess]
    ) {
        self.directory = directory
        self.executablePath = executablePath
        self.database = database
        self.signingKey = signingKey
        self.extraArguments = extraArguments
        self.processes = processes
        ports = processes.map(\.port)
        baseURLs = processes.map(\.baseURL)
    }

    /// The (first) server's process identifier.
    var serverPID: Int32 { processes[0].processIdentifier }

    /// Whether every server process is still alive.
    var isRunning: Bool { processes.allSatisfy(\.isRunning) }

    /// Kills one server (each in turn) with SIGKILL and starts it again on the same port and
    /// database; returns how long that took, from the kill to the new process printing its URL.
    func killAndRestart() async throws -> Duration {
        let started = ContinuousClock.now
        let victim = nextVictim
        nextVictim = (nextVictim + 1) % processes.count
        let old = processes[victim]
        try await offPool { old.kill9() }
        var attempt = 0
        while true {
            attempt += 1
            do {
                processes[victim] = try await Self.launch(
                    database, index: victim, port: ports[victim], directory: directory, executablePath: executablePath,
                    signingKey: signingKey, extraArguments: extraArguments)
                return ContinuousClock.now - started
            } catch  where attempt < 20 {
                // The port may be released a moment after the old process is reaped.
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Stops the servers with SIGTERM, and removes the temporary folder when `keepFiles` is false.
    func stop(keepFiles: Bool) async {
        for current in processes {
            _ = try? await offPool { current.terminate() }
        }
        if !keepFiles {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The error and critical lines the server logged, without their timestamps, each with how
    /// often it was logged, most frequent first.
    func loggedErrors() -> [(line: String, count: Int)] {
        let logs =
            (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.filter { $0.hasSuffix(".log") }
            ?? []
        let text = logs.compactMap {
            try? String(contentsOfFile: directory.appendingPathComponent($0).path, encoding: .utf8)
        }
        .joined(separator: "\n")
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
