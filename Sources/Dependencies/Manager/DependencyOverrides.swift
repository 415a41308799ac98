/// Registrations that replace a container's own for the length of one task tree (a test, say).
///
/// Overrides are bound with a task-local value, so concurrent tests each see only their own and
/// nothing leaks once the scope ends.
public struct DependencyOverrides: Sendable {
    let containerID: ObjectIdentifier
    var entries: [ObjectIdentifier: Registration]

    /// Replaces `type`'s registration inside the scope.
    public mutating func register<T: Sendable>(
        _ type: T.Type, lifetime: Lifetime = .shared, factory: @escaping @Sendable (Resolver) throws -> T
    ) {
        entries[ObjectIdentifier(type)] = Registration(
            typeName: String(reflecting: type), lifetime: lifetime, factory: { try factory($0) })
    }

    /// Replaces `type`'s registration inside the scope with a fixed instance.
    public mutating func register<T: Sendable>(_ type: T.Type, instance: T) {
        register(type, lifetime: .transient) { _ in instance }
    }

    @TaskLocal static var current: DependencyOverrides?
}
