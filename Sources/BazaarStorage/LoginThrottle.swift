import Foundation

/// Counts failed logins per username and per client address and says when to refuse (429).
///
/// A key that failed `maxFailures` times within `window` is refused until the oldest of those
/// failures leaves the window. An attempt is counted before its password is checked
/// (``reserve(username:address:)``), so attempts made at once cannot all pass a check that none of
/// them has counted yet; a successful login takes its own count back.
public protocol LoginThrottling: Sendable {
    /// Counts an attempt as a failure against every key it is made under, or refuses it without
    /// counting when a key is spent.
    func reserve(username: String, address: String?) async throws -> LoginAttempt
    /// The attempt succeeded: its count is taken back and the username's failures are forgotten.
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

extension LoginThrottling {
    /// Seconds until the first spent key frees up (its oldest counted failure leaves the
    /// window), at least 1; `nil` when no key is spent. `oldestOfSpentKeys` holds the oldest
    /// failure of each key at its limit.
    package static func retryAfter(oldestOfSpentKeys: [Date], window: Duration, now: Date) -> Int? {
        guard
            let longest = oldestOfSpentKeys.map({ $0.addingTimeInterval(window.timeInterval).timeIntervalSince(now) })
                .max()
        else { return nil }
        return max(1, Int(longest.rounded(.up)))
    }

    /// The keys an attempt counts against, each with its limit: the username, and the client
    /// address when known.
    package static func keys(username: String, address: String?, policy: LoginThrottle.Policy) -> [(
        key: String, limit: Int
    )] {
        var keys = [(key: "u:" + username, limit: policy.maxFailuresPerUsername)]
        if let address { keys.append((key: "a:" + address, limit: policy.maxFailuresPerAddress)) }
        return keys
    }
}

/// ``LoginThrottling`` in this process's memory, for a single server: a restart forgives, which
/// is acceptable for throttling. Replicas count together in PostgreSQL instead
/// (``PostgresLoginThrottle``).
public actor LoginThrottle: LoginThrottling {
    /// How strict the throttle is.
    public struct Policy: Sendable {
        /// Failures per username within the window before refusing.
        public var maxFailuresPerUsername: Int
        /// Failures per client address within the window before refusing.
        public var maxFailuresPerAddress: Int
        /// The sliding window.
        public var window: Duration

        /// Creates a policy (defaults: 5 per username, 20 per address, 15 minutes).
        public init(
            maxFailuresPerUsername: Int = 5, maxFailuresPerAddress: Int = 20, window: Duration = .seconds(15 * 60)
        ) {
            self.maxFailuresPerUsername = maxFailuresPerUsername
            self.maxFailuresPerAddress = maxFailuresPerAddress
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

    /// Counts the attempt against its keys unless one is spent (one actor turn: attempts made at
    /// once are counted one after another).
    public func reserve(username: String, address: String?) -> LoginAttempt {
        let current = now()
        let keys = Self.keys(username: username, address: address, policy: policy)
        var spent: [Date] = []
        for (key, limit) in keys {
            let recent = recentFailures(key, at: current)
            if recent.count >= limit, let oldest = recent.first { spent.append(oldest.at) }
        }
        if let wait = Self.retryAfter(oldestOfSpentKeys: spent, window: policy.window, now: current) {
            return .refused(retryAfter: wait)
        }
        let attemptId = UUID().uuidString
        for (key, _) in keys {
            failures[key] = recentFailures(key, at: current) + [Failure(at: current, attemptId: attemptId)]
        }
        if failures.count > 100_000 { failures = failures.filter { !recentFailures($0.key, at: current).isEmpty } }
        return .allowed(attemptId: attemptId)
    }

    /// Takes the attempt's count back and forgets the username's failures.
    public func recordSuccess(username: String, address: String?, attemptId: String) {
        for (key, _) in Self.keys(username: username, address: address, policy: policy) {
            failures[key]?.removeAll { $0.attemptId == attemptId }
        }
        failures["u:" + username] = nil
    }

    private func recentFailures(_ key: String, at current: Date) -> [Failure] {
        let start = current.addingTimeInterval(-policy.window.timeInterval)
        return (failures[key] ?? []).filter { $0.at > start }
    }
}
