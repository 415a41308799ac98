/// What a factory resolves its own dependencies with: it remembers the chain being resolved, so a
/// cycle is reported as ``DependencyError/cycle(path:)`` instead of recursing forever.
public struct Resolver: Sendable {
    let container: DependencyContainer
    let overrides: DependencyOverrides?
    let path: [ObjectIdentifier]

    /// Resolves `type`, which must be registered.
    public func resolve<T: Sendable>(_ type: T.Type = T.self) throws(DependencyError) -> T {
        try container.resolve(type, in: self)
    }

    func entering(_ id: ObjectIdentifier) -> Resolver {
        Resolver(container: container, overrides: overrides, path: path + [id])
    }
}
