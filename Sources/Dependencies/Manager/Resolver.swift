/// What a factory resolves its own dependencies with: it remembers the chain being resolved, so a
/// cycle is reported as ``DependencyError/cycle(path:)`` instead of recursing forever.
public struct Resolver: Sendable {
    @usableFromInline let container: DependencyContainer
    @usableFromInline let overrides: DependencyOverrides?
    @usableFromInline let path: ResolutionPath

    @usableFromInline
    init(container: DependencyContainer, overrides: DependencyOverrides?, path: ResolutionPath) {
        self.container = container
        self.overrides = overrides
        self.path = path
    }

    /// Resolves `type`, which must be registered.
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type = T.self) throws(DependencyError) -> T {
        try container.resolve(type, in: self)
    }

    func entering(_ id: ObjectIdentifier) -> Resolver {
        Resolver(container: container, overrides: overrides, path: path.appending(id))
    }
}
