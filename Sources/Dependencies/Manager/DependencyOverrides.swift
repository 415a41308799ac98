import Synchronization

/// Registrations that replace a container's own for the length of one task tree (a test, say).
///
/// Overrides are bound with a task-local value, so concurrent tests each see only their own and
/// nothing leaks once the scope ends.
public struct DependencyOverrides: Sendable {
    @usableFromInline let containerID: ObjectIdentifier
    @usableFromInline var entries: [ObjectIdentifier: Registration]

    /// Replaces `type`'s registration inside the scope.
    public mutating func register<T: Sendable>(
        _ type: T.Type, lifetime: Lifetime = .shared, factory: @escaping @Sendable (Resolver) throws -> T
    ) {
        entries[ObjectIdentifier(T.self)] = Registration(type, lifetime: lifetime, factory: factory)
    }

    /// Replaces `type`'s registration inside the scope with a fixed instance.
    public mutating func register<T: Sendable>(_ type: T.Type, instance: T) {
        register(type, lifetime: .transient) { _ in instance }
    }

    @TaskLocal static var current: DependencyOverrides?

    /// Whether any container has ever bound overrides in this process; until then resolving skips
    /// the task-local lookup. Set before the binding, so a task that sees overrides sees this too.
    static let everUsed = Atomic<Bool>(false)
}
