import ArgumentParser

/// `bazaar-reliability malformed`: throw malformed input at the server over raw TCP and check
/// each case gets a 4xx or a closed connection (never a 5xx, never a hang) and that the server
/// keeps serving afterwards.
struct MalformedCommand: AsyncParsableCommand {
    /// The command's name and help.
    static let configuration = CommandConfiguration(
        commandName: "malformed",
        abstract: "Sends malformed HTTP and WebSocket input to bazaar-server and checks it stays healthy.",
        discussion: """
            Cases: invalid UTF-8, deep nesting and impossible numbers in JSON, empty and oversized \
            bodies, wrong media types, header and URL limits, garbage request lines, broken framing, \
            garbage pipelined after valid requests, slow-loris connections, and broken or truncated \
            WebSocket frames on /v1/events; a socket whose session logs out, wrong passwords at once, \
            NUL and 3 KB strings in ids and names, a register flood while someone signs in. After \
            each case GET /health and an authenticated request must still succeed. One line per \
            case: OK or FAIL, the case, what came back. With --postgres URL the server runs on \
            that database.
            """
    )

    @Option(help: "Times the whole set of cases is run.")
    var rounds = 1

    @Option(help: "Run the server on this PostgreSQL database (a URL) instead of a temporary SQLite file.")
    var postgres: String?

    @OptionGroup var server: ServerOptions

    /// Checks the options.
    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
    }

    /// Runs the cases and fails with the first failing one.
    func run() async throws {
        let database: ServerSupervisor.Database = postgres.map { .postgres(url: $0, replicas: 1) } ?? .sqlite
        let summary = try await MalformedRun(
            rounds: rounds, executablePath: server.executablePath, database: database
        ).run()
        let passed = summary.cases - summary.failures.count
        Output.line("malformed: \(passed) of \(summary.cases) cases OK in \(summary.time.secondsText)")
        guard let first = summary.failures.first else { return }
        throw ReliabilityFailure(
            "malformed: \(summary.failures.count) of \(summary.cases) cases failed; first: \(first)")
    }
}
