import Synchronization

/// What the client kit did on the wire during a run, counted from any task: attempts (each
/// retry is one), attempts that failed without an answer, 5xx answers, and replayed sends.
final class ExchangeStatistics: Sendable {
    /// The counts, behind one lock.
    private let counts = Mutex(Counts())

    /// A snapshot of the counts.
    struct Counts: Sendable {
        /// Requests put on the wire, retries included.
        var attempts = 0
        /// Attempts that got no answer (connection refused or reset, timeout).
        var failedAttempts = 0
        /// Answers with a 5xx status (the contract never allows one for a client's input).
        var serverErrors = 0
        /// The 5xx answers' statuses and paths, for the report.
        var serverErrorSamples: [String] = []
        /// Sends answered as a replay (`Idempotent-Replayed: true`): the first attempt was stored but
        /// its answer was lost to a crash.
        var replays = 0
    }

    /// Makes statistics at zero.
    init() {}

    /// The counts so far.
    var snapshot: Counts { counts.withLock { $0 } }

    /// Counts one attempt and how it ended.
    func recordAttempt(status: Int?, path: String) {
        counts.withLock { counts in
            counts.attempts += 1
            guard let status else {
                counts.failedAttempts += 1
                return
            }
            if status >= 500 {
                counts.serverErrors += 1
                if counts.serverErrorSamples.count < 5 { counts.serverErrorSamples.append("\(status) \(path)") }
            }
        }
    }

    /// Counts one replayed send.
    func recordReplay() {
        counts.withLock { $0.replays += 1 }
    }
}
