/// Registers and resolves dependencies by type (seed 002's `DependencyManager`).
///
/// Conform a class that owns a ``DependencyContainer``; everything else comes from this protocol:
///
/// ```swift
/// public final class Dependencies: DependencyManager {
///     public static let shared = Dependencies()
///     public let container = DependencyContainer()
/// }
/// ```
public protocol DependencyManager: Sendable {
    /// The container that holds the registrations.
    var container: DependencyContainer { get }
    /// The types that must be registered before the app starts; ``validate()`` checks them.
    var requiredTypes: [any Any.Type] { get }
}

extension DependencyManager {
    /// Nothing is required by default.
    public var requiredTypes: [any Any.Type] { [] }

    /// Registers how to make `type`, replacing any earlier registration.
    public func register<T: Sendable>(
        _ type: T.Type, lifetime: Lifetime = .shared, factory: @escaping @Sendable (Resolver) throws -> T
    ) {
        container.register(type, lifetime: lifetime, factory: factory)
    }

    /// Resolves `type`.
    ///
    /// - Throws: ``DependencyError/missing(type:path:)`` naming the type when nothing is registered.
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type = T.self) throws(DependencyError) -> T {
        try container.resolve(type)
    }

    /// Checks that every required type is registered and every registration resolves.
    public func validate() throws(DependencyError) {
        try container.validate(required: requiredTypes)
    }

    /// Runs `operation` with some registrations replaced, for this task and its children only.
    public func withOverrides<Result>(
        _ configure: (inout DependencyOverrides) -> Void, operation: () async throws -> Result
    ) async rethrows -> Result {
        try await container.withOverrides(configure, operation: operation)
    }
}
