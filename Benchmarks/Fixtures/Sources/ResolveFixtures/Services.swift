import Foundation

/// A leaf service: where products come from.
public protocol ProductStore: Sendable {
    /// A product title.
    func title(of id: Int) -> String
}

/// A leaf service: prices in the user's currency.
public protocol PriceFormatter: Sendable {
    /// A price as text.
    func format(cents: Int) -> String
}

/// A service with two dependencies, the shape of a feature module.
public protocol CatalogService: Sendable {
    /// A product line.
    func line(for id: Int) -> String
}

/// The leaf store.
public final class MemoryProductStore: ProductStore {
    /// Makes a store.
    public init() {}

    /// A title.
    public func title(of id: Int) -> String { "Item \(id)" }
}

/// The leaf formatter.
public final class EuroFormatter: PriceFormatter {
    /// Makes a formatter.
    public init() {}

    /// A price.
    public func format(cents: Int) -> String { "€\(cents / 100).\(cents % 100)" }
}

/// The composed service.
public final class Catalog: CatalogService {
    let store: any ProductStore
    let formatter: any PriceFormatter

    /// Makes a catalog over its two dependencies.
    public init(store: any ProductStore, formatter: any PriceFormatter) {
        self.store = store
        self.formatter = formatter
    }

    /// A product line.
    public func line(for id: Int) -> String { store.title(of: id) + " " + formatter.format(cents: id) }
}

/// The type registered with a new instance per resolve (a concrete wrapper, so the same protocol is
/// not registered twice with two lifetimes).
public struct NewCatalog: Sendable {
    /// The catalog made for this resolve.
    public let catalog: any CatalogService

    /// Wraps a catalog.
    public init(catalog: any CatalogService) {
        self.catalog = catalog
    }
}

/// Stand-ins for the rest of an app's registrations, so each container holds 40 more types.
public protocol FillerService: Sendable {
    /// Makes one.
    init()
}

/// The filler types: forty distinct empty services.
public enum Filler {
    /// Filler 0.
    public struct S0: FillerService { public init() {} }
    /// Filler 1.
    public struct S1: FillerService { public init() {} }
    /// Filler 2.
    public struct S2: FillerService { public init() {} }
    /// Filler 3.
    public struct S3: FillerService { public init() {} }
    /// Filler 4.
    public struct S4: FillerService { public init() {} }
    /// Filler 5.
    public struct S5: FillerService { public init() {} }
    /// Filler 6.
    public struct S6: FillerService { public init() {} }
    /// Filler 7.
    public struct S7: FillerService { public init() {} }
    /// Filler 8.
    public struct S8: FillerService { public init() {} }
    /// Filler 9.
    public struct S9: FillerService { public init() {} }
    /// Filler 10.
    public struct S10: FillerService { public init() {} }
    /// Filler 11.
    public struct S11: FillerService { public init() {} }
    /// Filler 12.
    public struct S12: FillerService { public init() {} }
    /// Filler 13.
    public struct S13: FillerService { public init() {} }
    /// Filler 14.
    public struct S14: FillerService { public init() {} }
    /// Filler 15.
    public struct S15: FillerService { public init() {} }
    /// Filler 16.
    public struct S16: FillerService { public init() {} }
    /// Filler 17.
    public struct S17: FillerService { public init() {} }
    /// Filler 18.
    public struct S18: FillerService { public init() {} }
    /// Filler 19.
    public struct S19: FillerService { public init() {} }
    /// Filler 20.
    public struct S20: FillerService { public init() {} }
    /// Filler 21.
    public struct S21: FillerService { public init() {} }
    /// Filler 22.
    public struct S22: FillerService { public init() {} }
    /// Filler 23.
    public struct S23: FillerService { public init() {} }
    /// Filler 24.
    public struct S24: FillerService { public init() {} }
    /// Filler 25.
    public struct S25: FillerService { public init() {} }
    /// Filler 26.
    public struct S26: FillerService { public init() {} }
    /// Filler 27.
    public struct S27: FillerService { public init() {} }
    /// Filler 28.
    public struct S28: FillerService { public init() {} }
    /// Filler 29.
    public struct S29: FillerService { public init() {} }
    /// Filler 30.
    public struct S30: FillerService { public init() {} }
    /// Filler 31.
    public struct S31: FillerService { public init() {} }
    /// Filler 32.
    public struct S32: FillerService { public init() {} }
    /// Filler 33.
    public struct S33: FillerService { public init() {} }
    /// Filler 34.
    public struct S34: FillerService { public init() {} }
    /// Filler 35.
    public struct S35: FillerService { public init() {} }
    /// Filler 36.
    public struct S36: FillerService { public init() {} }
    /// Filler 37.
    public struct S37: FillerService { public init() {} }
    /// Filler 38.
    public struct S38: FillerService { public init() {} }
    /// Filler 39.
    public struct S39: FillerService { public init() {} }

    /// Every filler type.
    public static let all: [any FillerService.Type] = [
        S0.self, S1.self, S2.self, S3.self, S4.self, S5.self, S6.self, S7.self,
        S8.self, S9.self, S10.self, S11.self, S12.self, S13.self, S14.self, S15.self,
        S16.self, S17.self, S18.self, S19.self, S20.self, S21.self, S22.self, S23.self,
        S24.self, S25.self, S26.self, S27.self, S28.self, S29.self, S30.self, S31.self,
        S32.self, S33.self, S34.self, S35.self, S36.self, S37.self, S38.self, S39.self,
    ]
}
