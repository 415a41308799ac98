import Foundation
import HTTPTypes
import Synchronization

/// A private HTTP response cache with real HTTP semantics (seed 001/003's `Cache<URL, Data>`, grown up).
///
/// It obeys `Cache-Control` (`max-age`, `no-store`, `no-cache`, `private`, `must-revalidate`),
/// `Expires`, `Age` and `Vary`; revalidates with `ETag`/`If-None-Match` and
/// `Last-Modified`/`If-Modified-Since`, serving the stored body on a `304`. Memory is bounded by
/// the bytes stored, with least-recently-used eviction; an entry in memory also keeps the one value
/// last decoded from it, so a fresh hit skips decoding (see ``TransportResponse/decodeJSON(_:using:)``).
/// An optional folder keeps entries across restarts. Keys can be partitioned (one partition per
/// signed-in user) and a partition is wiped in one call.
public final class HTTPCache: Sendable {
    /// What a lookup found.
    enum Lookup: Sendable {
        /// A response that may be served as it is.
        case fresh(TransportResponse)
        /// A stored response that must be revalidated; send the request with these conditional headers.
        case stale(CachedResponse, conditionalHeaders: HTTPFields)
        /// Nothing usable is stored.
        case miss
    }

    private let memory: Mutex<LRUStore<CacheKey, CachedResponse>>
    /// For each URL (variant-less key), the request headers its responses vary on: a bounded memo
    /// of what the disk store holds (dropping it costs a disk read or, memory-only, a cache miss;
    /// never a wrong answer).
    private let varyIndex = Mutex([CacheKey: [String]]())
    /// How many URLs ``varyIndex`` remembers before it forgets.
    static let varyIndexLimit = 4096
    private let disk: DiskCacheStore?
    private let now: @Sendable () -> Date

    /// Makes a cache holding at most `memoryLimit` bytes in memory and, when `folder` is given, up to
    /// `diskLimit` bytes on disk there. `now` is the clock freshness is judged by.
    public init(
        memoryLimit: Int = 16 << 20,
        folder: URL? = nil,
        diskLimit: Int = 128 << 20,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        memory = Mutex(LRUStore(costLimit: memoryLimit))
        disk = try folder.map { try DiskCacheStore(folder: $0, byteLimit: diskLimit) }
        self.now = now
    }

    /// The current time on the cache's clock.
    public var currentDate: Date { now() }

    /// Bytes held in memory now.
    public var memoryUsage: Int { memory.withLock { $0.totalCost } }

    /// Looks up a stored response for `request` in `partition`, honouring `policy` (callers use
    /// ``begin(_:partition:policy:)``, which turns this into a plan and settles the answer).
    func lookup(_ request: TransportRequest, partition: String?, policy: CachePolicy) -> Lookup {
        guard Self.isCacheableMethod(request), policy != .disabled, policy != .reloadIgnoringCache,
            let base = Self.key(for: request, partition: partition)
        else { return .miss }
        let requestControl = CacheControl(request.head.headerFields[.cacheControl])
        if requestControl.noStore || requestControl.noCache { return .miss }
        let key = base.with(variant: Self.variant(names: varyNames(for: base), request: request))
        guard let entry = entry(for: key), Self.varyMatches(entry, request: request) else { return .miss }
        if Freshness.isFresh(entry, now: now()) {
            return .fresh(entry.transportResponse)
        }
        if policy == .returnCacheElseLoad, !entry.judgement.control.mustRevalidate {
            return .fresh(entry.transportResponse)
        }
        guard Freshness.canRevalidate(entry) else { return .miss }
        var conditional = HTTPFields()
        if let etag = entry.value(of: "etag") { conditional[.ifNoneMatch] = etag }
        if let lastModified = entry.value(of: "last-modified") { conditional[.ifModifiedSince] = lastModified }
        return .stale(entry, conditionalHeaders: conditional)
    }

    /// Stores `response` to `request` if HTTP allows it; returns the stored entry's memo of decoded
    /// values (so the caller's first decode is kept for later hits), or `nil` when nothing was stored.
    @discardableResult
    func store(
        _ response: TransportResponse, for request: TransportRequest, partition: String?, policy: CachePolicy,
        requestDate: Date, responseDate: Date
    ) -> DecodedValueMemo? {
        guard policy != .disabled, Self.isCacheableMethod(request), [200, 203].contains(response.status.code),
            let base = Self.key(for: request, partition: partition)
        else { return nil }
        let requestControl = CacheControl(request.head.headerFields[.cacheControl])
        let names = Self.varyNames(Self.joined(response.headerFields, .vary))
        // The entry parses the response's Cache-Control once, for this check and for every look-up.
        let entry = CachedResponse(
            response: response, requestDate: requestDate, responseDate: responseDate,
            varyValues: Self.varyValues(names: names, request: request))
        guard !requestControl.noStore, !entry.judgement.control.noStore, !names.contains("*") else {
            removeAllVariants(of: base)
            return nil
        }
        if varyNames(for: base) != names {
            removeAllVariants(of: base)
            remember(names, for: base)
            disk?.storeVaryNames(names, for: base)
        }
        let key = base.with(variant: Self.variant(names: names, request: request))
        guard Freshness.lifetime(of: entry) > 0 || Freshness.canRevalidate(entry) else { return nil }
        put(entry, for: key)
        return entry.decodedValues
    }

    /// Merges a `304 Not Modified` into the stored entry and returns the full response to serve.
    func revalidated(
        _ entry: CachedResponse, notModified: TransportResponse, for request: TransportRequest, partition: String?,
        requestDate: Date, responseDate: Date
    ) -> TransportResponse {
        var updated = entry
        updated.refresh(with: notModified.headerFields, requestDate: requestDate, responseDate: responseDate)
        if let base = Self.key(for: request, partition: partition) {
            let key = base.with(variant: Self.variant(names: varyNames(for: base), request: request))
            if updated.judgement.control.noStore {
                remove(key)
            } else {
                put(updated, for: key)
            }
        }
        return updated.transportResponse
    }

    /// Drops the stored response for `request`'s URL (after a write to it, for one).
    public func invalidate(_ request: TransportRequest, partition: String?) {
        if let base = Self.key(for: request, partition: partition) { removeAllVariants(of: base) }
    }

    /// Removes every entry of one partition, in memory and on disk (`nil`: the shared partition).
    public func removeAll(partition: String?) {
        memory.withLock { $0.removeAll { $0.partition == partition } }
        varyIndex.withLock { index in index = index.filter { $0.key.partition != partition } }
        disk?.removeAll(partition: partition)
    }

    /// Removes every entry of every partition.
    public func removeAll() {
        memory.withLock { $0.removeAll { _ in true } }
        varyIndex.withLock { $0.removeAll() }
        disk?.removeAll()
    }

    // MARK: - Storage

    private func entry(for key: CacheKey) -> CachedResponse? {
        if let hit = memory.withLock({ $0.value(for: key) }) { return hit }
        guard let fromDisk = disk?.entry(for: key) else { return nil }
        memory.withLock { _ = $0.set(fromDisk, for: key, cost: fromDisk.cost) }
        return fromDisk
    }

    private func put(_ entry: CachedResponse, for key: CacheKey) {
        memory.withLock { _ = $0.set(entry, for: key, cost: entry.cost) }
        disk?.store(entry, for: key)
    }

    private func remove(_ key: CacheKey) {
        memory.withLock { $0.removeValue(for: key) }
        disk?.remove(key)
    }

    private func removeAllVariants(of base: CacheKey) {
        memory.withLock { $0.removeAll { $0.url == base.url && $0.partition == base.partition } }
        disk?.removeAllVariants(of: base)
    }

    /// The headers responses for `base` vary on: from memory, else from disk, else none.
    private func varyNames(for base: CacheKey) -> [String] {
        if let names = varyIndex.withLock({ $0[base] }) { return names }
        let names = disk?.varyNames(for: base) ?? []
        remember(names, for: base)
        return names
    }

    /// Notes `names` for `base`, first forgetting URLs that vary on nothing (then everything) when
    /// the memo is full, so memory does not grow with every URL ever looked up.
    private func remember(_ names: [String], for base: CacheKey) {
        varyIndex.withLock { index in
            if index.count >= Self.varyIndexLimit, index[base] == nil {
                index = index.filter { !$0.value.isEmpty }
                if index.count >= Self.varyIndexLimit { index.removeAll() }
            }
            index[base] = names
        }
    }

    /// How many URLs the vary memo holds now (for tests).
    var varyIndexCount: Int { varyIndex.withLock { $0.count } }

    // MARK: - Rules

    private static func isCacheableMethod(_ request: TransportRequest) -> Bool {
        request.head.method == .get
    }

    private static func key(for request: TransportRequest, partition: String?) -> CacheKey? {
        guard let authority = request.head.authority, let path = request.head.path else { return nil }
        return CacheKey(partition: partition, url: "\(request.head.scheme ?? "http")://\(authority)\(path)")
    }

    /// The request's values for the headers the response varies on.
    private static func varyValues(names: [String], request: TransportRequest) -> [String: String?] {
        var values: [String: String?] = [:]
        for name in names {
            values[name] = HTTPField.Name(name).flatMap { joined(request.head.headerFields, $0) }
        }
        return values
    }

    /// The variant part of a key: each varied-on header's value in the request, in a fixed order.
    private static func variant(names: [String], request: TransportRequest) -> String {
        guard !names.isEmpty else { return "" }
        return names.sorted().map { name in
            "\(name)=\(HTTPField.Name(name).flatMap { joined(request.head.headerFields, $0) } ?? "\u{0}")"
        }.joined(separator: "\n")
    }

    private static func varyMatches(_ entry: CachedResponse, request: TransportRequest) -> Bool {
        entry.varyValues.allSatisfy { name, stored in
            HTTPField.Name(name).flatMap { joined(request.head.headerFields, $0) } == stored
        }
    }

    private static func varyNames(_ header: String?) -> [String] {
        guard let header else { return [] }
        return header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// All values of a field joined with commas, as HTTP allows for list-valued fields.
    private static func joined(_ fields: HTTPFields, _ name: HTTPField.Name) -> String? {
        let values = fields[values: name]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
