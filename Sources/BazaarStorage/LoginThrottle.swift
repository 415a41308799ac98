import Foundation

/// Counts failed logins per username and per client address and says when to refuse (429).
///
/// A key that failed `maxFailures` times within `window` is refused until the oldest of those
/// failures leaves the window.
public protocol LoginThrottling: Sendable {
    /// Seconds to wait before trying again, or `nil` when a login attempt may proceed.
    func retryAfter(username: String, address: String?) async throws -> Int?
    /// Records a failed attempt.
    func recordFailure(username: String, address: String?) async throws
    /// Forgets the username's failures after a successful login.
    func recordSuccess(username: String) async throws
}

extension LoginThrottling {
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
    private var failures: [String: [Date]] = [:]

    package init(policy: Policy, now: @escaping @Sendable () -> Date) {
        self.policy = policy
        self.now = now
    }

    /// Seconds to wait before trying again, or `nil` when a login attempt may proceed.
    public func retryAfter(username: String, address: String?) -> Int? {
        let current = now()
        var waits: [TimeInterval] = []
        for (key, limit) in Self.keys(username: username, address: address, policy: policy) {
            let recent = recentFailures(key, at: current)
            if recent.count >= limit, let oldest = recent.first {
                waits.append(oldest.addingTimeInterval(policy.window.timeInterval).timeIntervalSince(current))
            }
        }
        guard let longest = waits.max() else { return nil }
        return max(1, Int(longest.rounded(.up)))
    }

    /// Records a failed attempt.
    public func recordFailure(username: String, address: String?) {
        let current = now()
        for (key, _) in Self.keys(username: username, address: address, policy: policy) {
            failures[key] = recentFailures(key, at: current) + [current]
        }
        if failures.count > 100_000 { failures = failures.filter { !recentFailures($0.key, at: current).isEmpty } }
    }

    /// Forgets the username's failures after a successful login.
    public func recordSuccess(username: String) {
        failures["u:" + username] = nil
    }

    private func recentFailures(_ key: String, at current: Date) -> [Date] {
        let start = current.addingTimeInterval(-policy.window.timeInterval)
        return (failures[key] ?? []).filter { $0 > start }
    }
}
