import Networking

extension RetryPolicy {
    /// Generous enough to ride out a SIGKILL and restart of the server: with the default 40
    /// attempts, many quick ones (50 ms doubling up to 500 ms, with jitter) within 20 seconds.
    ///
    /// Fewer `attempts` make the kit give up during a restart, so the clients' own re-sends with
    /// the same key are exercised too.
    static func ridingOutRestarts(attempts: Int = 40) -> RetryPolicy {
        RetryPolicy(
            maxAttempts: attempts, baseDelay: .milliseconds(50), maxDelay: .milliseconds(500),
            maxTotalDelay: .seconds(20))
    }
}
