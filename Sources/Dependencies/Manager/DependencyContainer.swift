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
    private let current: Atomic<Unmanaged<Registry>>
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
        let registration = Registration(
            typeName: String(reflecting: type), lifetime: lifetime, factory: { try factory($0) })
        snapshots.withLock { snapshots in
            var entries = snapshots[snapshots.count - 1].entries
            entries[ObjectIdentifier(type)] = registration
            let next = Registry(entries: entries)
            snapshots.append(next)
            current.store(Unmanaged.passUnretained(next), ordering: .releasing)
        }
    }

    /// Whether something is registered for `type`.
    public func isRegistered<T>(_ type: T.Type) -> Bool {
        registry.entries[ObjectIdentifier(type)] != nil
    }

    /// Resolves `type`, which must be registered.
    public func resolve<T: Sendable>(_ type: T.Type = T.self) throws(DependencyError) -> T {
        try resolve(type, in: Resolver(container: self, overrides: overridesForThisContainer, path: []))
    }

    /// Runs `operation` with some registrations replaced, for this task and its children only.
    public func withOverrides<Result>(
        _ configure: (inout DependencyOverrides) -> Void, operation: () async throws -> Result
    ) async rethrows -> Result {
        var overrides = overridesForThisContainer ?? DependencyOverrides(containerID: ObjectIdentifier(self), entries: [:])
        configure(&overrides)
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
            let resolver = Resolver(container: self, overrides: nil, path: [id])
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

    private var registry: Registry {
        current.load(ordering: .acquiring).takeUnretainedValue()
    }

    private var overridesForThisContainer: DependencyOverrides? {
        guard let overrides = DependencyOverrides.current, overrides.containerID == ObjectIdentifier(self) else {
            return nil
        }
        return overrides
    }

    func resolve<T: Sendable>(_ type: T.Type, in resolver: Resolver) throws(DependencyError) -> T {
        let id = ObjectIdentifier(type)
        guard let registration = resolver.overrides?.entries[id] ?? registry.entries[id] else {
            throw .missing(type: String(reflecting: type), path: names(of: resolver.path))
        }
        if registration.lifetime == .shared, let instance = registration.instance.load() {
            return try cast(instance.value, registration)
        }
        if resolver.path.contains(id) {
            throw .cycle(path: names(of: resolver.path + [id]))
        }
        let value: any Sendable
        do {
            value = try registration.factory(resolver.entering(id))
        } catch let error as DependencyError {
            throw error
        } catch {
            throw .factoryFailed(type: registration.typeName, reason: "\(error)")
        }
        switch registration.lifetime {
        case .transient:
            return try cast(value, registration)
        case .shared:
            return try cast(registration.instance.storeIfNil(Registration.Instance(value)).value, registration)
        }
    }

    private func cast<T>(_ value: any Sendable, _ registration: Registration) throws(DependencyError) -> T {
        guard let typed = value as? T else { throw .typeMismatch(type: registration.typeName) }
        return typed
    }

    private func names(of path: [ObjectIdentifier]) -> [String] {
        let entries = registry.entries
        return path.map { entries[$0]?.typeName ?? "?" }
    }
}
