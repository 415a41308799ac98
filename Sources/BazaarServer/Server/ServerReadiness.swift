import Synchronization

/// Whether this server should be sent new traffic: it is from the moment it listens (migrations
/// are done before that) until a graceful shutdown begins, when ``isDraining`` turns true at once
/// and `/health/ready` answers 503 while in-flight requests finish.
public final class ServerReadiness: Sendable {
    private let draining = Atomic(false)

    /// A server that is not draining.
    public init() {}

    /// Whether a graceful shutdown has begun.
    public var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Marks the start of the drain (it does not end: a drained server stops).
    func beginDraining() {
        draining.store(true, ordering: .releasing)
    }
}
