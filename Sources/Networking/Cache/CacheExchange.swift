import Foundation
import HTTPTypes

/// One request's whole use of an ``HTTPCache``: made by ``HTTPCache/begin(_:partition:policy:)``
/// before sending, finished by ``complete(with:)`` with the answer. The cache keeps its own clock
/// (the exchange notes when the request left), so a caller never hands dates back and forth.
public struct CacheExchange: Sendable {
    /// What to do with the request.
    public enum Plan: Sendable {
        /// A stored response may be served as it is: send nothing.
        case serve(TransportResponse)
        /// Send this request: the original, or a conditional one revalidating a stored response.
        case send(TransportRequest)
    }

    /// Whether to serve from the cache or what to send.
    public let plan: Plan
    private let cache: HTTPCache
    private let request: TransportRequest
    private let partition: String?
    private let policy: CachePolicy
    private let stale: CachedResponse?
    private let requestDate: Date

    init(
        plan: Plan, cache: HTTPCache, request: TransportRequest, partition: String?, policy: CachePolicy,
        stale: CachedResponse?, requestDate: Date
    ) {
        self.plan = plan
        self.cache = cache
        self.request = request
        self.partition = partition
        self.policy = policy
        self.stale = stale
        self.requestDate = requestDate
    }

    /// Whether the request revalidates a stored response.
    public var isRevalidation: Bool { stale != nil }

    /// Stores, revalidates or invalidates from the server's `response`, and returns what to hand
    /// back: the stored response refreshed for a `304` to a revalidation, otherwise `response`.
    public func complete(with response: TransportResponse) -> TransportResponse {
        let responseDate = cache.currentDate
        if response.status.code == 304, let stale {
            return cache.revalidated(
                stale, notModified: response, for: request, partition: partition, requestDate: requestDate,
                responseDate: responseDate)
        }
        guard response.status.kind == .successful else { return response }
        if request.head.method.isUnsafe { cache.invalidate(request, partition: partition) }
        var stored = response
        stored.decodedValues = cache.store(
            response, for: request, partition: partition, policy: policy, requestDate: requestDate,
            responseDate: responseDate)
        return stored
    }
}

extension HTTPCache {
    /// Starts `request`'s use of the cache in `partition` under `policy`: serve a fresh response,
    /// send a conditional request for a stale one, or send the request as it is.
    public func begin(_ request: TransportRequest, partition: String?, policy: CachePolicy) -> CacheExchange {
        let requestDate = currentDate
        switch lookup(request, partition: partition, policy: policy) {
        case .fresh(let response):
            return CacheExchange(
                plan: .serve(response), cache: self, request: request, partition: partition, policy: policy, stale: nil,
                requestDate: requestDate)
        case .stale(let entry, let conditional):
            var outgoing = request
            for field in conditional { outgoing.head.headerFields[field.name] = field.value }
            return CacheExchange(
                plan: .send(outgoing), cache: self, request: request, partition: partition, policy: policy,
                stale: entry,
                requestDate: requestDate)
        case .miss:
            return CacheExchange(
                plan: .send(request), cache: self, request: request, partition: partition, policy: policy, stale: nil,
                requestDate: requestDate)
        }
    }
}
