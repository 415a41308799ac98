import BazaarAPI
import Foundation
import Networking
import NetworkingAsyncHTTPClient
import Session

/// The malformed-input run: every case of the catalogue against one server, each followed by a
/// check that the server still serves; one printed line per case.
struct MalformedRun {
    /// Times the whole catalogue is run.
    let rounds: Int
    /// The `bazaar-server` executable.
    let executablePath: String
    /// The database the server runs on.
    var database: ServerSupervisor.Database = .sqlite

    /// The timeouts and cap the server runs with: short, so the cases that wait for them stay quick.
    static let headerTimeout = Duration.seconds(2)
    static let bodyTimeout = Duration.seconds(2)
    static let idleTimeout = Duration.seconds(3)
    static let connectionCap = 256
    static let webSocketPingInterval = Duration.seconds(1)
    static let webSocketBacklog = 64

    /// Every case, in the order they run.
    static var catalogue: [MalformedCase] {
        MalformedCase.bodyCases + MalformedCase.requestCases + MalformedCase.webSocketCases
            + MalformedCase.slowLorisCases
            + MalformedCase.connectionCases + MalformedCase.securityCases
    }

    /// What the run found.
    struct Summary {
        /// Cases run (over all rounds).
        var cases = 0
        /// `name: reason` of each failed case.
        var failures: [String] = []
        /// How long it took.
        var time = Duration.zero
    }

    /// Runs the catalogue `rounds` times, printing a line per case.
    func run() async throws -> Summary {
        let started = ContinuousClock.now
        let supervisor = try await ServerSupervisor.start(
            executablePath: executablePath, database: database,
            extraArguments: [
                "--header-timeout", "\(Self.headerTimeout.components.seconds)", "--idle-timeout",
                "\(Self.idleTimeout.components.seconds)",
                "--body-timeout", "\(Self.bodyTimeout.components.seconds)",
                "--max-connections-per-address", "\(Self.connectionCap)",
                "--websocket-ping-interval", "\(Self.webSocketPingInterval.components.seconds)",
                "--websocket-backlog", "\(Self.webSocketBacklog)",
                // The slow-reader case sends thousands of messages as one user.
                "--message-quota", "0",
                // The register flood comes from many addresses, as a proxy would name them; and
                // its password checks cost what they cost in production.
                "--trust-forwarded-for", "--bcrypt-cost", "10",
            ])
        Output.line("bazaar-server on \(supervisor.baseURL)")
        var summary = Summary()
        do {
            let (context, probe) = try await setUp(supervisor: supervisor)
            allRounds: for round in 1...rounds {
                if rounds > 1 { Output.line("round \(round) of \(rounds)") }
                for malformed in Self.catalogue {
                    summary.cases += 1
                    let failure = await runCase(malformed, context: context, probe: probe)
                    if let failure {
                        summary.failures.append("\(malformed.name): \(failure)")
                        guard await supervisor.isRunning else { break allRounds }
                    }
                }
            }
        } catch {
            Output.line("server log: \(await supervisor.logPath)")
            await supervisor.stop(keepFiles: true)
            throw error
        }
        summary.time = ContinuousClock.now - started
        for (line, count) in await supervisor.loggedErrors() {
            Output.line("server logged \(count)× \(line)")
        }
        if summary.failures.isEmpty {
            await supervisor.stop(keepFiles: false)
        } else {
            Output.line("server log: \(await supervisor.logPath)")
            await supervisor.stop(keepFiles: true)
        }
        return summary
    }

    /// Registers two users with a conversation, through the kit; returns what the cases use and
    /// the probe that checks the server after each.
    private func setUp(supervisor: ServerSupervisor) async throws -> (CaseContext, HealthProbe) {
        let performer = NetworkRequestPerformer(
            transport: AsyncHTTPClientTransport(), retryPolicy: .never, timeout: .seconds(5))
        let client = APIClient.bazaar(baseURL: supervisor.baseURL, performer: performer)
        let run = UUID().uuidString.prefix(6).lowercased()
        let user = try await RunUser.register("prober_\(run)", client: client)
        let peer = try await RunUser.register("peer_\(run)", client: client)
        let conversation = try await user.network.request(
            BazaarEndpoints.startConversation(StartConversationRequest(userId: peer.userID)))
        let token = try await user.network.session.validTokens().accessToken
        let context = CaseContext(
            port: supervisor.port, token: token, conversationID: conversation.id, headerTimeout: Self.headerTimeout,
            bodyTimeout: Self.bodyTimeout,
            idleTimeout: Self.idleTimeout, connectionCap: Self.connectionCap,
            webSocketPingInterval: Self.webSocketPingInterval,
            serverPID: await supervisor.serverPID)
        return (context, HealthProbe(supervisor: supervisor, network: user.network, port: supervisor.port))
    }

    /// Runs one case and the server check after it, prints its line, and returns why it failed.
    private func runCase(_ malformed: MalformedCase, context: CaseContext, probe: HealthProbe) async -> String? {
        let started = ContinuousClock.now
        var summary: String
        var failure: String?
        do {
            let outcome = try await malformed.run(context)
            summary = outcome.summary
            failure = malformed.violation(in: outcome)
        } catch {
            summary = "error"
            failure = "\(error)"
        }
        let took = ContinuousClock.now - started
        if let problem = await probe.problem() {
            failure = [failure, "then the server failed a normal request: \(problem)"].compactMap { $0 }.joined(
                separator: "; ")
        }
        let verdict = failure == nil ? "OK  " : "FAIL"
        let name = malformed.name.padding(toLength: max(54, malformed.name.count), withPad: " ", startingAt: 0)
        Output.line("\(verdict) \(name) \(summary) (\(took.secondsText))\(failure.map { " — \($0)" } ?? "")")
        return failure
    }
}
