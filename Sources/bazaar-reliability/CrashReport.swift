/// The crash run's findings: the counts it prints and the violations it fails on.
struct CrashReport {
    /// Clients that sent at the same time.
    var clients = 0
    /// Messages planned (and sent at least once).
    var sent = 0
    /// Messages answered 201.
    var acknowledged = 0
    /// Messages never answered 201.
    var unacknowledged = 0
    /// The wire statistics of the kit.
    var exchanges = ExchangeStatistics.Counts()
    /// Client re-sends with the same key after the kit gave up, and why the kit gave up.
    var resends = 0
    /// Why the kit gave up before the re-sends, counted.
    var resendReasons: [String: Int] = [:]
    /// The history audit.
    var audit: HistoryAudit?
    /// Conversations read back, and the pages that took.
    var conversations = 0
    /// Pages read back.
    var pages = 0
    /// Kills asked for.
    var killsRequested = 0
    /// What the kill schedule did.
    var kills = KillSchedule.Outcome()
    /// How long the burst took, kills and restarts included.
    var burstTime = Duration.zero
    /// How long the whole run took, server start and audit included.
    var totalTime = Duration.zero
    /// Sends the server answered in a way a valid send never should.
    var refusals: [String] = []
    /// Whether the server was still running at the end.
    var serverAlive = true

    /// Every violation, one line each; empty when the run passed.
    var violations: [String] {
        var lines = audit?.violations ?? ["the history was not read"]
        lines += refusals.map { "refused: \($0)" }
        if exchanges.serverErrors > 0 {
            lines.append(
                "\(exchanges.serverErrors) answers were 5xx (\(exchanges.serverErrorSamples.joined(separator: ", ")))")
        }
        if kills.missed > 0 {
            lines.append(
                "the burst ended before \(kills.missed) of the \(killsRequested) kills; send more --messages-per-client"
            )
        }
        if !serverAlive { lines.append("the server died on its own") }
        return lines
    }

    /// The printed report.
    var lines: [String] {
        let restarts = kills.restartTimes.sorted()
        let restartText =
            restarts.isEmpty
            ? "none"
            : "min \(restarts[0].secondsText), median \(restarts[restarts.count / 2].secondsText), "
                + "max \(restarts[restarts.count - 1].secondsText) (SIGKILL until listening again)"
        let reasons = resendReasons.sorted { $0.value > $1.value }.map { "\($0.key): \($0.value)" }.joined(
            separator: ", ")
        return [
            "sent            \(sent) messages from \(clients) clients (\(exchanges.attempts) HTTP attempts in all, "
                + "\(exchanges.failedAttempts) without an answer)",
            "acknowledged    \(acknowledged) (\(exchanges.replays) answered as replays of a send the crash cut off)",
            "client re-sends \(resends) with the same key\(reasons.isEmpty ? "" : " (\(reasons))")",
            "found           \(audit?.found ?? 0) in \(conversations) conversations (\(pages) pages)",
            "duplicates      \(audit?.duplicates.count ?? 0)",
            "lost            \(audit?.lost.count ?? 0)",
            "unacknowledged  \(unacknowledged) (\(audit?.unacknowledgedStored ?? 0) of them stored, at most once each)",
            "kills           \(kills.restartTimes.count) of \(killsRequested); restart time \(restartText)",
            "time            burst \(burstTime.secondsText), whole run \(totalTime.secondsText)",
        ]
    }
}
