import Synchronization

/// One registered factory and, for a shared lifetime, the instance it made.
final class Registration: Sendable {
    /// Holds a resolved value so it can sit in an atomic reference.
    final class Instance: Sendable {
        let value: any Sendable
        init(_ value: any Sendable) { self.value = value }
    }

    let typeName: String
    let lifetime: Lifetime
    let factory: @Sendable (Resolver) throws -> any Sendable
    /// Set once, read without a lock: the shared instance.
    let instance = AtomicLazyReference<Instance>()

    init(typeName: String, lifetime: Lifetime, factory: @escaping @Sendable (Resolver) throws -> any Sendable) {
        self.typeName = typeName
        self.lifetime = lifetime
        self.factory = factory
    }
}

/// An immutable map from type to registration; a container swaps in a new one on each registration.
final class Registry: Sendable {
    let entries: [ObjectIdentifier: Registration]

    init(entries: [ObjectIdentifier: Registration]) {
        self.entries = entries
    }
}
