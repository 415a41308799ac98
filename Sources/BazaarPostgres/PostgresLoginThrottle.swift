import BazaarStorage
import Foundation
import PostgresNIO

/// ``LoginThrottling`` shared by every replica (the rule is ``LoginThrottling/retryAfter(keys:counts:window:now:)``): failures are rows in `login_failures`, so an
/// attacker spreading attempts over N replicas gets the same number of tries as against one.
/// Rows older than the window no longer count; the event listener prunes them.
///
/// An attempt is counted in one transaction that first takes an advisory lock per key (in key
/// order, so two attempts never wait on each other in a cycle): attempts at once on any replica
/// are counted one after another, and none passes a check another has not yet counted.
struct PostgresLoginThrottle: LoginThrottling {
    let database: PostgresDatabase
    let policy: LoginThrottle.Policy
    let now: @Sendable () -> Date

    func reserve(username: String, address: String?) async throws -> LoginAttempt {
        let keys = Self.keys(username: username, address: address, policy: policy).sorted { $0.key < $1.key }
        // Read at the millisecond the rows keep, so a failure stored a moment ago is not in the future.
        let nowMillis = StoredValues.millis(now())
        let current = StoredValues.date(nowMillis)
        let windowStart = StoredValues.millis(current.addingTimeInterval(-policy.window.timeInterval))
        let window = policy.window
        let attemptId = UUID().uuidString
        return try await database.withTransaction { transaction in
            try await transaction.rows(
                """
                SELECT pg_advisory_xact_lock(hashtextextended(k, 0))
                FROM unnest(\(keys.map(\.key))::TEXT[]) WITH ORDINALITY AS l(k, position) ORDER BY position
                """)
            let rows = try await transaction.rows(
                """
                SELECT throttle_key, COUNT(*), MIN(failed_at), MAX(failed_at) FROM login_failures
                WHERE throttle_key = ANY(\(keys.map(\.key))) AND failed_at > \(windowStart)
                GROUP BY throttle_key
                """)
            var counts: [String: ThrottleCount] = [:]
            for row in rows {
                let (key, count, oldest, newest) = try row.decode((String, Int, Int64, Int64).self)
                counts[key] = ThrottleCount(
                    count: count, oldest: StoredValues.date(oldest), newest: StoredValues.date(newest))
            }
            if let wait = Self.retryAfter(keys: keys, counts: counts, window: window, now: current) {
                return .refused(retryAfter: wait)
            }
            try await transaction.rows(
                """
                INSERT INTO login_failures (throttle_key, failed_at, attempt_id)
                SELECT unnest(\(keys.map(\.key))::TEXT[]), \(nowMillis), \(attemptId)
                """)
            return .allowed(attemptId: attemptId)
        }
    }

    func recordSuccess(username: String, address: String?, attemptId: String) async throws {
        // Through the key index: this attempt's rows, and the account's rows from this address.
        let keys = Self.keys(username: username, address: address, policy: policy).map(\.key)
        let accountAndAddress = Self.accountAndAddressKey(username: username, address: address)
        try await database.rows(
            """
            DELETE FROM login_failures
            WHERE throttle_key = ANY(\(keys)) AND (throttle_key = \(accountAndAddress) OR attempt_id = \(attemptId))
            """)
    }
}
