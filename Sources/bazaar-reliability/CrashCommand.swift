import ArgumentParser

/// `bazaar-reliability crash`: SIGKILL the server in the middle of a burst of sends, restart it,
/// and check that no acknowledged message was lost and no message was stored twice.
struct CrashCommand: AsyncParsableCommand {
    /// The command's name and help.
    static let configuration = CommandConfiguration(
        commandName: "crash",
        abstract: "Kills bazaar-server with SIGKILL during a burst of sends and audits the histories.",
        discussion: """
            Clients send concurrently through the kit (each message with its own Idempotency-Key, \
            re-sent with the same key when the kit gives up). The server is killed and restarted on \
            the same port and database --kills times during the burst. Afterwards every \
            conversation is read back page by page: each acknowledged message must be there exactly \
            once, no body twice, unacknowledged ones at most once.

            With --postgres URL, --replicas servers (2 by default) run on that database with one \
            signing key; clients are spread over them and the kills hit each replica in turn.

            Long form: bazaar-reliability crash --clients 16 --kills 20 --messages-per-client 500
            Client re-sends too: bazaar-reliability crash --kit-attempts 2 --kills 5
            Replicas: bazaar-reliability crash --postgres postgres://postgres@127.0.0.1:5432/bazaar --replicas 2
            """
    )

    @Option(help: "Clients sending at the same time.")
    var clients = 4

    @Option(help: "Times the server is killed (SIGKILL) and restarted during the burst.")
    var kills = 3

    @Option(help: "Messages each client sends.")
    var messagesPerClient = 100

    @Option(
        help:
            "Attempts the kit makes per send before the client re-sends it with the same key (2 makes client re-sends happen)."
    )
    var kitAttempts = 40

    @Option(help: "Run replicas on this PostgreSQL database instead of one server on SQLite.")
    var postgres: String?

    @Option(help: "With --postgres: how many replicas.")
    var replicas = 2

    @OptionGroup var server: ServerOptions

    /// Checks the numbers make a meaningful run.
    func validate() throws {
        guard (1...256).contains(clients) else { throw ValidationError("--clients must be 1-256") }
        guard kills >= 0 else { throw ValidationError("--kills must not be negative") }
        guard messagesPerClient >= 1 else { throw ValidationError("--messages-per-client must be at least 1") }
        guard kitAttempts >= 1 else { throw ValidationError("--kit-attempts must be at least 1") }
        guard (1...16).contains(replicas) else { throw ValidationError("--replicas must be 1-16") }
        guard clients * messagesPerClient >= 4 * (kills + 1) else {
            throw ValidationError("too few messages for \(kills) kills: send at least \(4 * (kills + 1)) in all")
        }
    }

    /// Runs the crash run, prints the report, and fails with the first violation.
    func run() async throws {
        let database: ServerSupervisor.Database = postgres.map { .postgres(url: $0, replicas: replicas) } ?? .sqlite
        let servers = postgres == nil ? "one server on SQLite" : "\(replicas) replicas on PostgreSQL"
        Output.line("crash: \(clients) clients × \(messagesPerClient) messages, \(kills) kills, \(servers)")
        let report = try await CrashRun(
            clients: clients, kills: kills, messagesPerClient: messagesPerClient, kitAttempts: kitAttempts,
            executablePath: server.executablePath, database: database
        ).run()
        for line in report.lines { Output.line("  " + line) }
        let violations = report.violations
        for violation in violations.prefix(20) { Output.line("  VIOLATION \(violation)") }
        guard let first = violations.first else {
            Output.line("crash: OK")
            return
        }
        throw ReliabilityFailure("crash: \(violations.count) violations; first: \(first)")
    }
}
