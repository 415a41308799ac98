import BazaarAPI
import HTTPTypes
import Networking

/// Sees every final response and counts the sends the server answered as replays of an earlier
/// attempt with the same `Idempotency-Key` (header `Idempotent-Replayed: true`).
struct ReplayObserver: RequestInterceptor {
    /// Where replays are counted.
    let statistics: ExchangeStatistics

    /// Counts the response when it is a replay.
    func didReceive(_ response: TransportResponse, for request: TransportRequest) async {
        guard let name = HTTPField.Name(APIHeaders.idempotentReplayed) else { return }
        if response.headerFields[name] == "true" { statistics.recordReplay() }
    }
}
