import Synchronization

/// One registered factory and, for a shared lifetime, the instance it made.
@usableFromInline
final class Registration: Sendable {
    /// A made instance: always a ``TypedInstance`` of the registered type.
    @usableFromInline typealias Instance = AnyObject & Sendable

    @usableFromInline let typeName: String
    @usableFromInline let lifetime: Lifetime
    /// Makes a new instance, boxed as a ``TypedInstance`` of the registered type.
    @usableFromInline let factory: @Sendable (Resolver) throws -> any Instance
    /// Set once, read without a lock: the shared instance.
    @usableFromInline let instance = AtomicLazyReference<any Instance>()

    init<T: Sendable>(
        _ type: T.Type, lifetime: Lifetime, factory: @escaping @Sendable (Resolver) throws -> T
    ) {
        typeName = String(reflecting: type)
        self.lifetime = lifetime
        self.factory = { TypedInstance(try factory($0)) }
    }
}

/// A resolved value boxed with its static type, so handing it back as `T` is a class cast (a
/// pointer comparison) instead of a cast from `any Sendable`, which looks up a protocol conformance
/// on every resolve and was most of what a resolve cost.
@usableFromInline
final class TypedInstance<T: Sendable>: Sendable {
    @usableFromInline let value: T

    @usableFromInline
    init(_ value: T) {
        self.value = value
    }
}

/// An immutable map from type to registration; a container swaps in a new one on each registration.
@usableFromInline
final class Registry: Sendable {
    @usableFromInline let entries: [ObjectIdentifier: Registration]

    init(entries: [ObjectIdentifier: Registration]) {
        self.entries = entries
    }
}
