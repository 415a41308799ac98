import BazaarAPI
import BazaarServer

extension BazaarTestClient {
    /// The values of the server's `/metrics` lines that `matches` picks (each line's last field), in
    /// the order the server wrote them: how a test reads a labelled family such as
    /// `bazaar_requests_total{route=…}` and adds up the lines it cares about.
    public func metricValues(where matches: (Substring) -> Bool) async throws -> [Double] {
        try await get(APIRoutes.metrics.template).text.split(separator: "\n")
            .filter(matches)
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
    }

    /// The value of the unlabelled metric `name` in the server's `/metrics`, or `nil` when it is not there.
    public func metric(_ name: String) async throws -> Double? {
        try await metricValues { $0.hasPrefix(name + " ") }.first
    }

    /// Whether the server's `bazaar_memos_believed` reads `believed` within `limit`: a replica's
    /// memories are believed once its event listener has caught up and pinged, a second or so after
    /// it starts, and stop being believed when the listener stops hearing.
    public func memos(believed: Bool = true, within limit: Duration = .seconds(10)) async throws -> Bool {
        try await eventually(within: limit) {
            try await metric(ServerMetrics.Name.memosBelieved) == (believed ? 1 : 0)
        }
    }
}
