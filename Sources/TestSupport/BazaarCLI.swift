import Foundation
import Synchronization

/// The built `bazaar` executable (or another of the package's), run as a child process the way a
/// person or a script runs it.
public struct BazaarCLI: Sendable {
    /// What one run printed and how it ended.
    public struct Outcome: Sendable {
        /// The exit status (or the signal number, when killed).
        public var exitCode: Int32
        /// Everything written to standard output.
        public var stdout: String
        /// Everything written to standard error.
        public var stderr: String
    }

    /// The path of the executable: `$BAZAAR_BINARY`, or beside the test bundle.
    public let path: String

    /// Finds the built executable.
    public init() {
        if let path = ProcessInfo.processInfo.environment["BAZAAR_BINARY"] {
            self.init(path: path)
        } else {
            self.init(executable: "bazaar")
        }
    }

    private init(path: String) {
        self.path = path
    }

    /// Another of the package's executables (`bazaar-datagen`, say), built beside the test bundle.
    public init(executable name: String) {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        self.init(path: directory.appendingPathComponent(name).path)
    }

    /// Runs `bazaar arguments…` to the end and returns what it printed; `input` is its standard
    /// input (none, by default: reading it gives end of input at once).
    public func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) async throws
        -> Outcome
    {
        let process = try start(arguments, input: input, environment: environment)
        return await process.wait()
    }

    /// Starts `bazaar arguments…` and returns the running process.
    public func start(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws
        -> Running
    {
        let running = try launch(arguments, interactive: input != nil, environment: environment)
        if let input {
            try running.type(input)
            try running.endInput()
        }
        return running
    }

    /// Starts `bazaar arguments…` with its standard input left open: the test types lines into it
    /// with ``Running/type(_:)`` while it runs, as a person would, and ends it with ``Running/endInput()``.
    public func startInteractive(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        try launch(arguments, interactive: true, environment: environment)
    }

    private func launch(_ arguments: [String], interactive: Bool, environment: [String: String]) throws -> Running {
        let process = try ChildProcess(
            executable: path, arguments: arguments, addingToEnvironment: environment,
            standardInput: interactive ? .pipe : .null, standardOutput: .pipe, standardError: .pipe)
        return Running(process: process)
    }

    /// A child process still running.
    public final class Running: Sendable {
        private let process: ChildProcess

        init(process: ChildProcess) {
            self.process = process
        }

        /// Writes `text` to the process's standard input (started interactive).
        public func type(_ text: String) throws {
            try process.standardInput?.write(contentsOf: Data(text.utf8))
        }

        /// Closes standard input: the process reads the end of input.
        public func endInput() throws {
            try process.standardInput?.close()
        }

        /// Kills the process with SIGKILL: no chance to finish anything.
        public func kill9() {
            process.send(SIGKILL)
        }

        /// Waits for the end (off the cooperative pool) and returns what it printed. A process
        /// still running after `limit` is killed (its standard error then says so), so a hang
        /// fails the test that met it instead of blocking the whole run.
        public func wait(killingAfter limit: Duration = .seconds(120)) async -> Outcome {
            let process = self.process
            let killed = Mutex(false)
            let watchdog = Task {
                try await Task.sleep(for: limit)
                killed.withLock { $0 = true }
                process.send(SIGKILL)
            }
            defer { watchdog.cancel() }
            let outcome = try? await offPool { () -> Outcome in
                let both = PipeReading.readToEnd([process.standardOutput, process.standardError].compactMap { $0 })
                let (out, err) = (both[0], both[1])
                let exitCode = process.waitUntilExit()
                var errorText = String(decoding: err, as: UTF8.self)
                if killed.withLock({ $0 }) { errorText += "\n[killed by the test: still running after \(limit)]" }
                return Outcome(
                    exitCode: exitCode, stdout: String(decoding: out, as: UTF8.self), stderr: errorText
                )
            }
            return outcome ?? Outcome(exitCode: -1, stdout: "", stderr: "")
        }
    }
}
