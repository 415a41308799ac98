import HTTPTypes
import Networking

/// The kit's transport with every attempt counted into ``ExchangeStatistics``, so the report can
/// say how many retries a crash caused and whether any answer was a 5xx.
struct CountingTransport: HTTPTransport {
    /// The transport that really sends.
    let base: any HTTPTransport
    /// Where attempts are counted.
    let statistics: ExchangeStatistics

    /// Sends through `base`, counting the attempt and its outcome.
    func send(_ request: TransportRequest, options: TransferOptions) async throws(NetworkError) -> TransportResponse {
        do {
            let response = try await base.send(request, options: options)
            statistics.recordAttempt(status: response.status.code, path: request.head.path ?? "")
            return response
        } catch {
            statistics.recordAttempt(status: nil, path: request.head.path ?? "")
            throw error
        }
    }
}
