/// Where a response is stored: its URL and variant, within an optional partition (one per user).
public struct CacheKey: Sendable, Hashable, Codable {
    /// The partition, or `nil` for the shared one.
    public var partition: String?
    /// The absolute URL with query.
    public var url: String
    /// The request's values of the headers the response varies on (empty when it varies on none).
    public var variant: String

    /// Makes a key.
    public init(partition: String?, url: String, variant: String = "") {
        self.partition = partition
        self.url = url
        self.variant = variant
    }

    /// The same URL and partition with another variant.
    func with(variant: String) -> CacheKey {
        CacheKey(partition: partition, url: url, variant: variant)
    }
}
