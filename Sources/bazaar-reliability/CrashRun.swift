import BazaarAPI
import Foundation
import Networking
import NetworkingAsyncHTTPClient
import Session

/// The crash run: clients send a burst of keyed messages through the kit while the server is
/// killed with SIGKILL and restarted on the same port and database; then every conversation's
/// history is read back and audited.
struct CrashRun {
    /// Clients sending at the same time.
    let clients: Int
    /// Kills during the burst.
    let kills: Int
    /// Messages each client sends.
    let messagesPerClient: Int
    /// Attempts the kit makes per send before the client re-sends it with the same key.
    let kitAttempts: Int
    /// The `bazaar-server` executable.
    let executablePath: String
    /// One server on SQLite, or replicas on PostgreSQL (a client per replica, kills in turn).
    var database: ServerSupervisor.Database = .sqlite

    /// Runs it and returns the report; the server's folder is kept (and named) when it fails.
    func run() async throws -> CrashReport {
        let started = ContinuousClock.now
        let supervisor = try await ServerSupervisor.start(
            executablePath: executablePath, database: database,
            // A burst of sends is the point here: the per-user message quota would only slow it.
            extraArguments: ["--message-quota", "0", "--register-quota", "0"])
        let urls = supervisor.baseURLs.map(\.absoluteString).joined(separator: ", ")
        Output.line("bazaar-server on \(urls) (database \(await supervisor.databasePath))")
        var report: CrashReport
        do {
            report = try await burstAndAudit(supervisor: supervisor)
        } catch {
            Output.line("server log: \(await supervisor.logPath)")
            await supervisor.stop(keepFiles: true)
            throw error
        }
        report.serverAlive = await supervisor.isRunning
        report.totalTime = ContinuousClock.now - started
        for (line, count) in await supervisor.loggedErrors() {
            Output.line("server logged \(count)× \(line)")
        }
        if report.violations.isEmpty {
            await supervisor.stop(keepFiles: false)
        } else {
            Output.line("server log: \(await supervisor.logPath)")
            await supervisor.stop(keepFiles: true)
        }
        return report
    }

    /// Sets up users and conversations, runs the burst with the kills, and audits the histories.
    private func burstAndAudit(supervisor: ServerSupervisor) async throws -> CrashReport {
        let statistics = ExchangeStatistics()
        let performer = NetworkRequestPerformer(
            transport: CountingTransport(base: AsyncHTTPClientTransport(), statistics: statistics),
            interceptors: [ReplayObserver(statistics: statistics)],
            retryPolicy: .ridingOutRestarts(attempts: kitAttempts),
            timeout: .seconds(10))
        // One client per server; sender i talks to server i mod n, the inbox reads through the first.
        let replicaClients = supervisor.baseURLs.map { APIClient.bazaar(baseURL: $0, performer: performer) }
        let run = UUID().uuidString.prefix(6).lowercased()

        let inbox = try await RunUser.register("inbox_\(run)", client: replicaClients[0])
        var senders: [UserSession] = []
        var conversationIDs: [String] = []
        for index in 0..<clients {
            let sender = try await RunUser.register(
                "sender\(index)_\(run)", client: replicaClients[index % replicaClients.count])
            let conversation = try await sender.network.request(
                BazaarEndpoints.startConversation(StartConversationRequest(userId: inbox.userID)))
            senders.append(sender)
            conversationIDs.append(conversation.id)
        }
        let plans = (0..<clients).map { index in
            (0..<messagesPerClient).map { number in
                PlannedMessage(
                    client: index, conversationID: conversationIDs[index],
                    body: "crash run \(run): client \(index) message \(number) \(UUID().uuidString.prefix(8))",
                    idempotencyKey: UUID().uuidString)
            }
        }
        let ledger = MessageLedger(planned: plans.flatMap { $0 })
        let schedule = KillSchedule(total: clients * messagesPerClient, kills: kills)

        let burstStarted = ContinuousClock.now
        let killOutcome = try await withThrowingTaskGroup(of: KillSchedule.Outcome?.self) { group in
            for index in 0..<clients {
                let burstClient = BurstClient(network: senders[index].network, messages: plans[index], ledger: ledger)
                group.addTask {
                    await burstClient.run()
                    return nil
                }
            }
            group.addTask { [clients] in
                try await schedule.execute(ledger: ledger, supervisor: supervisor, clients: clients)
            }
            var outcome = KillSchedule.Outcome()
            for try await result in group {
                if let result { outcome = result }
            }
            return outcome
        }
        let burstTime = ContinuousClock.now - burstStarted

        let reader = HistoryReader(network: inbox.network)
        var history: [Message] = []
        var pages = 0
        for conversationID in conversationIDs {
            let read = try await reader.messages(in: conversationID)
            history += read.messages
            pages += read.pages
        }

        var report = CrashReport()
        report.clients = clients
        report.sent = ledger.planned.count
        report.acknowledged = await ledger.acknowledged.count
        report.unacknowledged = await ledger.unacknowledged.count
        report.resends = await ledger.resends
        report.resendReasons = await ledger.resendReasons
        report.refusals = await ledger.refusals
        report.exchanges = statistics.snapshot
        report.audit = HistoryAudit(planned: ledger.planned, acknowledged: await ledger.acknowledged, history: history)
        report.conversations = conversationIDs.count
        report.pages = pages
        report.killsRequested = kills
        report.kills = killOutcome
        report.burstTime = burstTime
        return report
    }
}
