import Dependencies
import ResolveFixtures

// swift-dependencies: keys whose live values are the same services. A key's live value is made once
// and cached (shared); the new-instance case is a factory that builds a catalog from the shared leaves.

private enum ProductStoreKey: DependencyKey {
    static let liveValue: any ProductStore = MemoryProductStore()
}

private enum PriceFormatterKey: DependencyKey {
    static let liveValue: any PriceFormatter = EuroFormatter()
}

private enum CatalogKey: DependencyKey {
    static var liveValue: any CatalogService {
        @Dependency(\.productStore) var store
        @Dependency(\.priceFormatter) var formatter
        return Catalog(store: store, formatter: formatter)
    }
}

private enum MakeCatalogKey: DependencyKey {
    static let liveValue: @Sendable () -> NewCatalog = {
        @Dependency(\.productStore) var store
        @Dependency(\.priceFormatter) var formatter
        return NewCatalog(catalog: Catalog(store: store, formatter: formatter))
    }
}

extension DependencyValues {
    var productStore: any ProductStore {
        get { self[ProductStoreKey.self] }
        set { self[ProductStoreKey.self] = newValue }
    }
    var priceFormatter: any PriceFormatter {
        get { self[PriceFormatterKey.self] }
        set { self[PriceFormatterKey.self] = newValue }
    }
    var catalog: any CatalogService {
        get { self[CatalogKey.self] }
        set { self[CatalogKey.self] = newValue }
    }
    var makeCatalog: @Sendable () -> NewCatalog {
        get { self[MakeCatalogKey.self] }
        set { self[MakeCatalogKey.self] = newValue }
    }
}
