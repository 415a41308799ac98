/// How one request may use the response cache.
public enum CachePolicy: Sendable, Hashable {
    /// HTTP semantics: a fresh stored response is served, a stale one is revalidated.
    case useProtocol
    /// Always asks the network, but stores what comes back for later requests.
    case reloadIgnoringCache
    /// Serves any stored response however stale; asks the network only when nothing is stored.
    case returnCacheElseLoad
    /// Neither reads nor writes the cache.
    case disabled
}
