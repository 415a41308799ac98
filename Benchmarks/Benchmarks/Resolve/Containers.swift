import Dependencies
import ResolveFixtures
import Swinject

/// Our container with the benchmark's registrations.
func makeOurContainer() -> DependencyContainer {
    let container = DependencyContainer()
    func registerFiller<T: FillerService>(_ type: T.Type) { container.register(T.self) { _ in T() } }
    for type in Filler.all { registerFiller(type) }
    container.register((any ProductStore).self) { _ in MemoryProductStore() }
    container.register((any PriceFormatter).self) { _ in EuroFormatter() }
    container.register((any CatalogService).self) { resolver in
        Catalog(
            store: try resolver.resolve((any ProductStore).self),
            formatter: try resolver.resolve((any PriceFormatter).self))
    }
    container.register(NewCatalog.self, lifetime: .transient) { resolver in
        NewCatalog(
            catalog: Catalog(
                store: try resolver.resolve((any ProductStore).self),
                formatter: try resolver.resolve((any PriceFormatter).self)))
    }
    return container
}

/// Swinject's container with the same registrations and lifetimes.
func makeSwinjectContainer() -> Container {
    let container = Container()
    func registerFiller<T: FillerService>(_ type: T.Type) { container.register(T.self) { _ in T() } }
    for type in Filler.all { registerFiller(type) }
    container.register((any ProductStore).self) { _ in MemoryProductStore() }.inObjectScope(.container)
    container.register((any PriceFormatter).self) { _ in EuroFormatter() }.inObjectScope(.container)
    container.register((any CatalogService).self) { resolver in
        Catalog(
            store: resolver.required((any ProductStore).self), formatter: resolver.required((any PriceFormatter).self))
    }.inObjectScope(.container)
    container.register(NewCatalog.self) { resolver in
        NewCatalog(
            catalog: Catalog(
                store: resolver.required((any ProductStore).self),
                formatter: resolver.required((any PriceFormatter).self)))
    }.inObjectScope(.transient)
    return container
}

extension Swinject.Resolver {
    /// Resolves a type the benchmark registered; a missing one is a bug in this file.
    func required<T>(_ type: T.Type) -> T {
        guard let value = resolve(type) else { preconditionFailure("\(T.self) is not registered") }
        return value
    }
}
