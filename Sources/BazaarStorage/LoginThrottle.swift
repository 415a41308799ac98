import Foundation

/// Counts failed logins and says when to refuse (429), under three keys an attempt counts against:
///
/// - **the account from this address**: five failures lock that address out of that account for
///   the window. Failures from one address never lock the account for another one, so nobody can
///   keep a user out by failing on purpose.
/// - **the address**: twenty failures, over any accounts, lock the address out of signing in.
/// - **the account from everywhere**: past a much higher ceiling (100 in the window) the account
///   is slowed rather than locked: one attempt per ``LoginThrottle/Policy/slowInterval`` (5 s),
///   whoever makes it. An attacker with many addresses gets the ceiling and then one guess per
///   interval; the user gets a `Retry-After` of seconds, never a lockout.
///
/// An attempt is counted before its password is checked (``reserve(username:address:)``), so
/// attempts made at once cannot all pass a check that none of them has counted yet; a successful
/// login takes its own count back and forgets its address's failures on the account.
public protocol LoginThrottling: Sendable {
    /// Counts an attempt as a failure against every key it is made under, or refuses it without
    /// counting when a key says so.
    func reserve(username: String, address: String?) async throws -> LoginAttempt
    /// The attempt succeeded: its count is taken back, and the failures on the account from its
    /// address are forgotten (those from other addresses still count toward the ceiling).
    func recordSuccess(username: String, address: String?, attemptId: String) async throws
}

/// What the throttle says of a login attempt before its password is checked.
public enum LoginAttempt: Sendable, Equatable {
    /// The attempt may go on; it counts as a failure until
    /// ``LoginThrottling/recordSuccess(username:address:attemptId:)`` takes it back.
    case allowed(attemptId: String)
    /// Too many failures: try again after this many seconds (at least 1).
    case refused(retryAfter: Int)
}

/// One key an attempt counts against, with what happens at its limit.
package struct ThrottleKey: Sendable {
    /// What a key does once `limit` failures are in the window.
    package enum AtLimit: Sendable {
        /// Refuse until the oldest counted failure leaves the window.
        case lock
        /// Refuse only until `interval` after the newest failure: one attempt per interval.
        case slow(Duration)
    }

    package let key: String
    package let limit: Int
    package let atLimit: AtLimit
}

/// The failures in the window under one key: how many, the oldest and the newest.
package struct ThrottleCount: Sendable {
    package let count: Int
    package let oldest: Date
    package let newest: Date

    package init(count: Int, oldest: Date, newest: Date) {
        self.count = count
        self.oldest = oldest
        self.newest = newest
    }
}

extension LoginThrottling {
    /// The rule both engines decide by: seconds until every key would take one more attempt
    /// (at least 1), or `nil` when the attempt may go on. `counts` holds each key's failures in
    /// the window (a key with none may be missing).
    package static func retryAfter(
        keys: [ThrottleKey], counts: [String: ThrottleCount], window: Duration, now: Date
    ) -> Int? {
        var waits: [TimeInterval] = []
        for key in keys {
            guard let count = counts[key.key], count.count >= key.limit else { continue }
            switch key.atLimit {
            case .lock:
                waits.append(count.oldest.addingTimeInterval(window.timeInterval).timeIntervalSince(now))
            case .slow(let interval):
                let wait = count.newest.addingTimeInterval(interval.timeInterval).timeIntervalSince(now)
                if wait > 0 { waits.append(wait) }
            }
        }
        guard let longest = waits.max() else { return nil }
        return max(1, Int(longest.rounded(.up)))
    }

    /// The keys an attempt counts against (see ``LoginThrottling``): the account from this
    /// address, the address when known, and the account from everywhere.
    package static func keys(username: String, address: String?, policy: LoginThrottle.Policy) -> [ThrottleKey] {
        var keys = [
            ThrottleKey(
                key: accountAndAddressKey(username: username, address: address),
                limit: policy.maxFailuresPerAccountAndAddress, atLimit: .lock),
            ThrottleKey(key: "u:" + username, limit: policy.maxFailuresPerAccount, atLimit: .slow(policy.slowInterval)),
        ]
        if let address {
            keys.append(ThrottleKey(key: "a:" + address, limit: policy.maxFailuresPerAddress, atLimit: .lock))
        }
        return keys
    }

    /// The key of the account from one address (usernames hold no space, addresses no newline).
    package static func accountAndAddressKey(username: String, address: String?) -> String {
        "ua:" + username + " " + (address ?? "unknown")
    }
}

/// ``LoginThrottling`` in this process's memory, for a single server: a restart forgives, which
/// is acceptable for throttling. Replicas count together in PostgreSQL instead
/// (``PostgresLoginThrottle``).
public actor LoginThrottle: LoginThrottling {
    /// How strict the throttle is.
    public struct Policy: Sendable {
        /// Failures for one account from one address within the window before that address is
        /// refused for that account.
        public var maxFailuresPerAccountAndAddress: Int
        /// Failures from one client address, over any accounts, within the window before refusing it.
        public var maxFailuresPerAddress: Int
        /// Failures for one account from every address within the window past which attempts on
        /// it are slowed to one per ``slowInterval``.
        public var maxFailuresPerAccount: Int
        /// Past ``maxFailuresPerAccount``, the time between two attempts on the account.
        public var slowInterval: Duration
        /// The sliding window.
        public var window: Duration

        /// Creates a policy (defaults: 5 per account and address, 20 per address, then past 100
        /// per account one attempt every 5 s; a 15-minute window).
        public init(
            maxFailuresPerAccountAndAddress: Int = 5, maxFailuresPerAddress: Int = 20, maxFailuresPerAccount: Int = 100,
            slowInterval: Duration = .seconds(5), window: Duration = .seconds(15 * 60)
        ) {
            self.maxFailuresPerAccountAndAddress = maxFailuresPerAccountAndAddress
            self.maxFailuresPerAddress = maxFailuresPerAddress
            self.maxFailuresPerAccount = maxFailuresPerAccount
            self.slowInterval = slowInterval
            self.window = window
        }
    }

    private let policy: Policy
    private let now: @Sendable () -> Date
    /// A counted attempt: when, and which (so a success can take its own count back).
    private struct Failure {
        let at: Date
        let attemptId: String
    }

    private var failures: [String: [Failure]] = [:]

    package init(policy: Policy, now: @escaping @Sendable () -> Date) {
        self.policy = policy
        self.now = now
    }

    /// Counts the attempt against its keys unless one refuses it (one actor turn: attempts made
    /// at once are counted one after another).
    public func reserve(username: String, address: String?) -> LoginAttempt {
        let current = now()
        let keys = Self.keys(username: username, address: address, policy: policy)
        var counts: [String: ThrottleCount] = [:]
        for key in keys {
            let recent = recentFailures(key.key, at: current)
            if let oldest = recent.first, let newest = recent.last {
                counts[key.key] = ThrottleCount(count: recent.count, oldest: oldest.at, newest: newest.at)
            }
        }
        if let wait = Self.retryAfter(keys: keys, counts: counts, window: policy.window, now: current) {
            return .refused(retryAfter: wait)
        }
        let attemptId = UUID().uuidString
        for key in keys {
            failures[key.key] = recentFailures(key.key, at: current) + [Failure(at: current, attemptId: attemptId)]
        }
        if failures.count > 100_000 { failures = failures.filter { !recentFailures($0.key, at: current).isEmpty } }
        return .allowed(attemptId: attemptId)
    }

    /// Takes the attempt's count back and forgets the account's failures from its address.
    public func recordSuccess(username: String, address: String?, attemptId: String) {
        for key in Self.keys(username: username, address: address, policy: policy) {
            failures[key.key]?.removeAll { $0.attemptId == attemptId }
        }
        failures[Self.accountAndAddressKey(username: username, address: address)] = nil
    }

    private func recentFailures(_ key: String, at current: Date) -> [Failure] {
        let start = current.addingTimeInterval(-policy.window.timeInterval)
        return (failures[key] ?? []).filter { $0.at > start }
    }
}
