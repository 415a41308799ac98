/// When the crash run kills the server: after evenly spaced fractions of the burst have settled
/// (kill k of n once k/(n+1) of the messages are acknowledged or given up), so every kill lands
/// while clients are still sending, however fast or slow the machine is.
struct KillSchedule: Sendable {
    /// Messages in the whole burst.
    let total: Int
    /// Kills wanted.
    let kills: Int

    /// What the schedule did.
    struct Outcome: Sendable {
        /// How long each kill-and-restart took (kill to listening again).
        var restartTimes: [Duration] = []
        /// Kills that did not happen because the burst had already ended.
        var missed = 0
    }

    /// How many messages must have settled before kill `k` (1-based).
    func threshold(forKill k: Int) -> Int {
        total * k / (kills + 1)
    }

    /// Waits for each threshold and kills and restarts the server there.
    ///
    /// - Throws: when the server cannot be started again (the clients are cancelled then).
    func execute(ledger: MessageLedger, supervisor: ServerSupervisor, clients: Int) async throws -> Outcome {
        var outcome = Outcome()
        guard kills > 0 else { return outcome }
        for kill in 1...kills {
            let threshold = threshold(forKill: kill)
            while await ledger.settled < threshold, await ledger.finishedClients < clients {
                try await Task.sleep(for: .milliseconds(2))
            }
            guard await ledger.finishedClients < clients else {
                outcome.missed += 1
                continue
            }
            outcome.restartTimes.append(try await supervisor.killAndRestart())
        }
        return outcome
    }
}
