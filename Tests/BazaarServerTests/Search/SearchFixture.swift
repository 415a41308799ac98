import BazaarAPI
import BazaarServer
import BazaarServerRuntime
import BazaarStorage
import Foundation
import TestSupport

/// A catalogue of a few hundred products that both backends are loaded with, and what searches
/// over it must answer.
///
/// Most listings are generated from small word lists ("Vintage lamp", "Comes with a matching
/// vase."), so the right answer for a word can be worked out here from the listings themselves;
/// a handful are written by hand for stems, phrases, exclusions and Unicode folding.
struct SearchFixture {
    /// One listing before it is stored.
    struct Listing {
        var title: String
        var description: String
        var priceCents: Int
        /// Index into ``sellers``.
        var seller: Int
        /// The generated item in the title, and the one the description mentions, if generated.
        var titleItem: String?
        var descriptionItem: String?
    }

    /// The sellers' usernames.
    static let sellers = ["ana", "ben", "cy"]
    /// The generated items (never in a hand-written listing).
    static let items = ["lamp", "table", "vase", "mirror", "clock", "rug", "sofa", "desk"]
    static let adjectives = [
        "Vintage", "Modern", "Small", "Large", "Oak", "Brass", "Green", "Red", "Antique", "Folding",
    ]

    /// The hand-written listings, by name, for exact expectations.
    static let markers: [String: Listing] = [
        "roadBike": Listing(
            title: "Road bike, 54 cm", description: "Aluminium frame, Shimano gears.", priceCents: 45_000, seller: 0),
        "kidsBike": Listing(
            title: "Kids bike with stabilisers", description: "For ages 4 to 6. Safe on the road.", priceCents: 6_000,
            seller: 1),
        "racingBike": Listing(
            title: "Road racing bike", description: "Carbon frame; a kids size is also for sale.", priceCents: 120_000,
            seller: 2),
        "mountainBikes": Listing(
            title: "Mountain bikes (pair)", description: "Two bikes, they need new tyres.", priceCents: 30_000,
            seller: 0),
        "pump": Listing(title: "Floor pump", description: "Fits road bike valves.", priceCents: 1_500, seller: 1),
        "helmet": Listing(
            title: "Helmet", description: "Worn twice, on my bike to work.", priceCents: 2_500, seller: 2),
        "cafeChair": Listing(
            title: "Café chair", description: "Bentwood, from a Parisian café.", priceCents: 4_000, seller: 0),
        "roadAtlas": Listing(
            title: "Road atlas", description: "Every road of the country, 2019 edition.", priceCents: 800, seller: 1),
    ]

    /// Every listing in the order it is stored (so later ones are newer): markers spread among
    /// 300 generated listings.
    static let listings: [(name: String?, listing: Listing)] = {
        var all: [(String?, Listing)] = []
        let markerNames = markers.keys.sorted()
        for index in 0..<300 {
            let item = items[(index * 7 + index / 8) % items.count]
            let adjective = adjectives[(index * 3 + index / 10) % adjectives.count]
            let plural = index % 5 == 0
            let mentioned = index % 3 == 0 ? items[(index * 5 + 3) % items.count] : nil
            let description = "Good condition. " + (mentioned.map { "Comes with a matching \($0)." } ?? "Pick up only.")
            all.append(
                (
                    nil,
                    Listing(
                        title: plural ? "\(adjective) \(item)s, set of two" : "\(adjective) \(item)",
                        description: description, priceCents: ((index * 37) % 200 + 1) * 100,
                        seller: index % sellers.count,
                        titleItem: item, descriptionItem: mentioned)
                ))
            // One marker after every 35 generated listings, from the 31st on.
            if index >= 30, (index - 30) % 35 == 0, (index - 30) / 35 < markerNames.count {
                let name = markerNames[(index - 30) / 35]
                all.append((name, markers[name]!))
            }
        }
        return all
    }()

    /// The stored catalogue: products oldest first, and the sellers' ids.
    struct Loaded {
        let products: [Product]
        let sellerIds: [String]
        let names: [String: Product]
    }

    /// Stores every listing through `store`, oldest first.
    static func load(into store: any BazaarStore) async throws -> Loaded {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var sellerIds: [String] = []
        for name in sellers {
            let user = try await store.createUser(
                NewUser(
                    id: UUID().uuidString.lowercased(), username: name, displayName: name.capitalized,
                    passwordHash: "x", createdAt: start))
            sellerIds.append(user.user.id)
        }
        var products: [Product] = []
        var names: [String: Product] = [:]
        for (offset, entry) in listings.enumerated() {
            let product = Product(
                id: UUID().uuidString.lowercased(), sellerId: sellerIds[entry.listing.seller],
                title: entry.listing.title,
                description: entry.listing.description, priceCents: entry.listing.priceCents, currency: "EUR",
                createdAt: start + Double(offset))
            try await store.createProduct(product)
            products.append(product)
            if let name = entry.name { names[name] = product }
        }
        return Loaded(products: products, sellerIds: sellerIds, names: names)
    }

    /// A backend to search on, and whether its planner has statistics on the catalogue.
    struct Backend: Sendable, CustomStringConvertible {
        var storage: StorageKind
        /// PostgreSQL only: `ANALYZE` after loading, so its search scans read a rare search's
        /// every match through the index; without statistics the planner chooses alone.
        var analysed = false

        /// Each available backend, and PostgreSQL both with statistics and without.
        static var all: [Backend] {
            StorageKind.available.flatMap { kind in
                kind == .postgres
                    ? [Backend(storage: kind), Backend(storage: kind, analysed: true)] : [Backend(storage: kind)]
            }
        }

        var description: String { analysed ? "\(storage), analysed" : "\(storage)" }
    }

    /// Loads the catalogue into a fresh database on `storage` and runs `body` against a server on it.
    static func withServer<Result: Sendable>(
        on storage: StorageKind, _ body: (BazaarTestClient, Loaded) async throws -> Result
    ) async throws -> Result {
        try await withServer(on: Backend(storage: storage), body)
    }

    /// Loads the catalogue into a fresh database on `backend` and runs `body` against a server on it.
    static func withServer<Result: Sendable>(
        on backend: Backend, _ body: (BazaarTestClient, Loaded) async throws -> Result
    ) async throws -> Result {
        try await backend.storage.withConfiguration { configuration in
            let opened = try await StorageEngines.openStore(
                configuration: configuration, logger: TestServer.quietLogger(label: "search-fixture"))
            let loaded: Loaded
            do {
                loaded = try await load(into: opened.store)
                if backend.analysed, let postgres = configuration.postgres {
                    try await PostgresTestDatabase.analyse(postgres)
                }
            } catch {
                await opened.close()
                throw error
            }
            await opened.close()
            return try await BazaarTestHarness.withServer(configuration: configuration) { client in
                try await body(client, loaded)
            }
        }
    }

    /// What a search for one generated item must answer, by relevance: titles naming it (newest
    /// first), then descriptions mentioning it (newest first).
    static func expected(item: String, in loaded: Loaded) -> [Product] {
        let indexed = Array(zip(listings.map(\.listing), loaded.products).reversed())
        return indexed.filter { $0.0.titleItem == item }.map(\.1)
            + indexed.filter { $0.0.titleItem != item && $0.0.descriptionItem == item }.map(\.1)
    }
}
