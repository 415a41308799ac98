import BazaarAPI
import BazaarServer

extension BazaarTestClient {
    /// The value of the unlabelled metric `name` in the server's `/metrics`, or `nil` when it is not there.
    public func metric(_ name: String) async throws -> Double? {
        let text = try await get(APIRoutes.metrics.template).text
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    /// Whether the server's `bazaar_memos_believed` reads `believed` within `limit` (asked every
    /// 20 ms): a replica's memories are believed once its event listener has caught up and pinged,
    /// a second or so after it starts, and stop being believed when the listener stops hearing.
    public func memos(believed: Bool = true, within limit: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await metric(ServerMetrics.Name.memosBelieved) == (believed ? 1 : 0) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
