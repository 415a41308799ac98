import BazaarAPI
import Foundation
import Networking

extension APIClient {
    /// A client for a Bazaar server: the API's JSON dates (ISO 8601 with milliseconds) and the given
    /// performer (transport, cache, retry, logging).
    public static func bazaar(baseURL: URL, performer: NetworkRequestPerformer = NetworkRequestPerformer()) -> APIClient
    {
        APIClient(
            baseURL: baseURL, performer: performer, encoder: BazaarJSON.makeEncoder(), decoder: BazaarJSON.makeDecoder()
        )
    }
}
