import Synchronization

/// One registered factory and, for a shared lifetime, the instance it made.
@usableFromInline
final class Registration: Sendable {
    /// A made instance: always a ``TypedInstance`` of the registered type.
    @usableFromInline typealias Instance = AnyObject & Sendable

    @usableFromInline let typeName: String
    /// `ObjectIdentifier(T.self)` of the registered type: a resolve of `T` that finds this
    /// registration compares it with its own `T` (one pointer comparison) and then reads the boxes
    /// below as `T`'s without a runtime cast.
    @usableFromInline let typeID: ObjectIdentifier
    @usableFromInline let lifetime: Lifetime
    /// Makes a new instance, boxed as a ``TypedInstance`` of the registered type (for shared
    /// instances and validation). Always a `TypedInstance<T>` for the `T` of ``typeID``.
    @usableFromInline let factory: @Sendable (Resolver) throws -> any Instance
    /// The same factory unboxed: a ``TypedFactory`` of the registered type, so a transient resolve
    /// returns the new value without allocating a box for it. Always a `TypedFactory<T>` for the
    /// `T` of ``typeID``.
    @usableFromInline let typedFactory: any Instance
    /// Set once, read without a lock: the shared instance.
    @usableFromInline let instance = AtomicLazyReference<any Instance>()

    init<T: Sendable>(
        _ type: T.Type, lifetime: Lifetime, factory: @escaping @Sendable (Resolver) throws -> T
    ) {
        typeName = String(reflecting: type)
        typeID = ObjectIdentifier(T.self)
        self.lifetime = lifetime
        self.factory = { TypedInstance(try factory($0)) }
        typedFactory = TypedFactory(factory)
    }
}

/// A factory kept with its static type, reached by a class cast like ``TypedInstance``.
@usableFromInline
final class TypedFactory<T: Sendable>: Sendable {
    @usableFromInline let make: @Sendable (Resolver) throws -> T

    @usableFromInline
    init(_ make: @escaping @Sendable (Resolver) throws -> T) {
        self.make = make
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
    /// The same registrations sorted by type identity, for lookups by binary search: a handful of
    /// integer comparisons instead of hashing the key with SipHash on every resolve.
    @usableFromInline let sortedKeys: [UInt]
    @usableFromInline let sortedRegistrations: [Registration]

    init(entries: [ObjectIdentifier: Registration]) {
        self.entries = entries
        let sorted = entries.map { (key: UInt(bitPattern: $0.key), registration: $0.value) }.sorted { $0.key < $1.key }
        sortedKeys = sorted.map(\.key)
        sortedRegistrations = sorted.map(\.registration)
    }

    /// The registration for a type, if any.
    @inlinable
    func registration(for id: ObjectIdentifier) -> Registration? {
        let key = UInt(bitPattern: id)
        var low = 0
        var high = sortedKeys.count
        while low < high {
            let middle = (low &+ high) >> 1
            if sortedKeys[middle] < key { low = middle &+ 1 } else { high = middle }
        }
        return low < sortedKeys.count && sortedKeys[low] == key ? sortedRegistrations[low] : nil
    }
}
