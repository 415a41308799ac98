import Synchronization

/// Registers factories by type and resolves instances: the engine under ``DependencyManager``.
///
/// Resolving takes no lock: registrations live in an immutable snapshot read through an atomic
/// pointer, keyed by `ObjectIdentifier` of the type (no strings), and a shared instance is read from
/// an atomic lazy reference. Registering copies the snapshot under a lock and swaps the pointer, so
/// it is safe while other threads resolve. Superseded snapshots stay alive until the container is
/// released (a reader may still hold one); registration happens at launch, so they are few.
///
/// Factories receive a ``Resolver`` for their own dependencies: resolution is re-entrant (no lock is
/// held while a factory runs) and a cycle is a typed error, not a hang. A shared instance is made
/// once in the common case; if two threads race on the very first resolve, both factories may run,
/// but only one instance is ever handed out.
public final class DependencyContainer: Sendable {
    @usableFromInline let current: Atomic<Unmanaged<Registry>>
    /// Every snapshot ever published, newest last; keeps them alive for lock-free readers.
    private let snapshots: Mutex<[Registry]>

    /// Makes an empty container.
    public init() {
        let empty = Registry(entries: [:])
        snapshots = Mutex([empty])
        current = Atomic(Unmanaged.passUnretained(empty))
    }

    /// Registers how to make `type` (usually a protocol), replacing any earlier registration.
    public func register<T: Sendable>(
        _ type: T.Type, lifetime: Lifetime = .shared, factory: @escaping @Sendable (Resolver) throws -> T
    ) {
        let registration = Registration(type, lifetime: lifetime, factory: factory)
        snapshots.withLock { snapshots in
            var entries = snapshots[snapshots.count - 1].entries
            entries[ObjectIdentifier(T.self)] = registration
            let next = Registry(entries: entries)
            snapshots.append(next)
            current.store(Unmanaged.passUnretained(next), ordering: .releasing)
        }
    }

    /// Whether something is registered for `type`.
    public func isRegistered<T>(_ type: T.Type) -> Bool {
        registry.entries[ObjectIdentifier(T.self)] != nil
    }

    /// Resolves `type`, which must be registered.
    ///
    /// Inlinable so the caller's concrete `T` is known here: reading the stored box back as `T` is
    /// then one comparison of type identities, with no runtime cast.
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type = T.self) throws(DependencyError) -> T {
        let overrides = overridesForThisContainer
        // The common case, a shared instance already made with no overrides in scope, needs no
        // resolver and no cycle bookkeeping: one map lookup, one atomic load, one class cast.
        if overrides == nil, let registration = registry.registration(for: ObjectIdentifier(T.self)),
            registration.lifetime == .shared, let instance = registration.instance.load()
        {
            return try cast(instance, registration)
        }
        return try resolve(type, in: Resolver(container: self, overrides: overrides, path: .empty))
    }

    /// Runs `operation` with some registrations replaced, for this task and its children only.
    public func withOverrides<Result>(
        _ configure: (inout DependencyOverrides) -> Void, operation: () async throws -> Result
    ) async rethrows -> Result {
        var overrides =
            overridesForThisContainer ?? DependencyOverrides(containerID: ObjectIdentifier(self), entries: [:])
        configure(&overrides)
        DependencyOverrides.everUsed.store(true, ordering: .relaxed)
        return try await DependencyOverrides.$current.withValue(overrides, operation: operation)
    }

    /// Checks that every type in `required` is registered and that every registration resolves
    /// (no missing dependency inside a factory, no cycle). Call it at launch.
    ///
    /// - Throws: ``DependencyError/validationFailed(_:)`` listing every problem found.
    public func validate(required: [any Any.Type] = []) throws(DependencyError) {
        var problems: [DependencyError] = []
        let entries = registry.entries
        for type in required where entries[ObjectIdentifier(type)] == nil {
            problems.append(.missing(type: String(reflecting: type), path: []))
        }
        for (id, registration) in entries.sorted(by: { $0.value.typeName < $1.value.typeName }) {
            let resolver = Resolver(container: self, overrides: nil, path: ResolutionPath.empty.appending(id))
            do {
                _ = try registration.factory(resolver)
            } catch let error as DependencyError {
                if !problems.contains(error) { problems.append(error) }
            } catch {
                problems.append(.factoryFailed(type: registration.typeName, reason: "\(error)"))
            }
        }
        if !problems.isEmpty { throw .validationFailed(problems) }
    }

    // MARK: - Resolution

    @inlinable var registry: Registry {
        current.load(ordering: .acquiring).takeUnretainedValue()
    }

    @usableFromInline var overridesForThisContainer: DependencyOverrides? {
        // Reading a task-local on every resolve costs more than the rest of a shared resolve; an
        // app that never overrides (any app outside its tests) skips it.
        guard DependencyOverrides.everUsed.load(ordering: .relaxed), let overrides = DependencyOverrides.current,
            overrides.containerID == ObjectIdentifier(self)
        else {
            return nil
        }
        return overrides
    }

    @inlinable
    func resolve<T: Sendable>(_ type: T.Type, in resolver: Resolver) throws(DependencyError) -> T {
        let id = ObjectIdentifier(T.self)
        guard let registration = resolver.overrides?.entries[id] ?? registry.registration(for: id) else {
            throw missing(type, path: resolver.path.ids)
        }
        switch registration.lifetime {
        case .shared:
            if let instance = registration.instance.load() { return try cast(instance, registration) }
            return try cast(try make(registration, id: id, in: resolver), registration)
        case .transient:
            guard registration.typeID == id else { throw .typeMismatch(type: registration.typeName) }
            // Safe: a registration whose typeID is T's holds a TypedFactory<T> (Registration.init).
            let factory = unsafeDowncast(registration.typedFactory, to: TypedFactory<T>.self)
            let inner = try entering(registration, id: id, from: resolver)
            do {
                return try factory.make(inner)
            } catch {
                throw Self.failure(error, in: registration)
            }
        }
    }

    /// The resolver a factory gets: `resolver` one level deeper, or a cycle error.
    @usableFromInline
    func entering(_ registration: Registration, id: ObjectIdentifier, from resolver: Resolver) throws(DependencyError)
        -> Resolver
    {
        if resolver.path.contains(id) {
            throw .cycle(path: names(of: resolver.path.appending(id).ids))
        }
        return resolver.entering(id)
    }

    /// A factory's error as the container reports it: its own ``DependencyError`` as is, anything
    /// else as ``DependencyError/factoryFailed(type:reason:)``.
    @usableFromInline
    static func failure(_ error: any Error, in registration: Registration) -> DependencyError {
        if let error = error as? DependencyError { return error }
        return .factoryFailed(type: registration.typeName, reason: "\(error)")
    }

    /// Runs a registration's factory (a shared one at most once in the common case) and returns
    /// the instance to hand out.
    @usableFromInline
    func make(_ registration: Registration, id: ObjectIdentifier, in resolver: Resolver) throws(DependencyError)
        -> any Registration.Instance
    {
        let inner = try entering(registration, id: id, from: resolver)
        let value: any Registration.Instance
        do {
            value = try registration.factory(inner)
        } catch {
            throw Self.failure(error, in: registration)
        }
        switch registration.lifetime {
        case .transient:
            return value
        case .shared:
            return registration.instance.storeIfNil(value)
        }
    }

    /// The error for a type nothing is registered for.
    @usableFromInline
    func missing(_ type: Any.Type, path: [ObjectIdentifier]) -> DependencyError {
        .missing(type: String(reflecting: type), path: names(of: path))
    }

    @inlinable
    func cast<T: Sendable>(_ instance: any Registration.Instance, _ registration: Registration)
        throws(DependencyError) -> T
    {
        guard registration.typeID == ObjectIdentifier(T.self) else { throw .typeMismatch(type: registration.typeName) }
        // Safe: a registration whose typeID is T's only ever makes TypedInstance<T> (Registration.init).
        return unsafeDowncast(instance, to: TypedInstance<T>.self).value
    }

    private func names(of path: [ObjectIdentifier]) -> [String] {
        let entries = registry.entries
        return path.map { entries[$0]?.typeName ?? "?" }
    }
}
