import BazaarStorage
import Foundation
import PostgresNIO

/// ``LoginThrottling`` shared by every replica: failures are rows in `login_failures`, so an
/// attacker spreading attempts over N replicas gets the same number of tries as against one.
/// Rows older than the window no longer count; the event listener prunes them.
struct PostgresLoginThrottle: LoginThrottling {
    let database: PostgresDatabase
    let policy: LoginThrottle.Policy
    let now: @Sendable () -> Date

    func retryAfter(username: String, address: String?) async throws -> Int? {
        let keys = Self.keys(username: username, address: address, policy: policy)
        let current = now()
        let windowStart = StoredValues.millis(current.addingTimeInterval(-policy.window.timeInterval))
        let rows = try await database.rows(
            """
            SELECT throttle_key, COUNT(*), MIN(failed_at) FROM login_failures
            WHERE throttle_key = ANY(\(keys.map(\.key))) AND failed_at > \(windowStart)
            GROUP BY throttle_key
            """)
        var waits: [TimeInterval] = []
        for row in rows {
            let (key, count, oldest) = try row.decode((String, Int, Int64).self)
            guard let limit = keys.first(where: { $0.key == key })?.limit, count >= limit else { continue }
            waits.append(
                StoredValues.date(oldest).addingTimeInterval(policy.window.timeInterval).timeIntervalSince(current))
        }
        guard let longest = waits.max() else { return nil }
        return max(1, Int(longest.rounded(.up)))
    }

    func recordFailure(username: String, address: String?) async throws {
        let keys = Self.keys(username: username, address: address, policy: policy).map(\.key)
        try await database.rows(
            "INSERT INTO login_failures (throttle_key, failed_at) SELECT unnest(\(keys)::TEXT[]), \(StoredValues.millis(now()))"
        )
    }

    func recordSuccess(username: String) async throws {
        try await database.rows("DELETE FROM login_failures WHERE throttle_key = \("u:" + username)")
    }
}
