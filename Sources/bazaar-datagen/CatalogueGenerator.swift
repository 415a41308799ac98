import BazaarAPI
import BazaarServer
import BazaarStorage
import Foundation

/// Makes users, listings and conversations from ``Vocabulary``, the same ones for the same seed.
struct CatalogueGenerator {
    /// SplitMix64: small, fast and good enough to vary word choices reproducibly.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
        mutating func chance(_ oneIn: Int) -> Bool { below(oneIn) == 0 }
    }

    var random: Random
    /// When the first generated listing was made; later ones follow a minute apart on average.
    let start = Date(timeIntervalSince1970: 1_767_225_600)

    init(seed: UInt64) {
        random = Random(state: seed)
    }

    /// A deterministic id from the generator's stream, shaped like the server's (a lower-case UUID).
    mutating func id() -> String {
        let high = random.next()
        let low = random.next()
        let hex = String(format: "%016llx%016llx", high, low)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// User number `index`: `user000042`, with a display name.
    mutating func user(_ index: Int, passwordHash: String) -> NewUser {
        NewUser(
            id: id(), username: String(format: "user%06d", index),
            displayName: "\(random.pick(Vocabulary.firstNames)) \(String(UnicodeScalar(UInt8(65 + index % 26))))",
            passwordHash: passwordHash, createdAt: start)
    }

    /// Listing number `index`, sold by one of `sellers`.
    mutating func product(_ index: Int, sellers: [String]) -> Product {
        let category = random.pick(Vocabulary.categories)
        let rare = random.chance(50_000)
        let item = rare ? random.pick(Vocabulary.rareItems) : random.pick(category.items)
        var title = "\(random.pick(category.adjectives).capitalizedFirst) \(item)"
        if random.chance(2) { title += ", \(random.pick(category.details))" }
        var sentences = [random.pick(Vocabulary.conditions)]
        if random.chance(2) { sentences.append(random.pick(Vocabulary.stories)) }
        if random.chance(3) { sentences.append("Comes with \(random.pick(category.accessories)).") }
        if random.chance(4) { sentences.append("Details: \(random.pick(category.details)).") }
        sentences.append(
            random.pick(Vocabulary.pickups).replacingOccurrences(of: "{city}", with: random.pick(Vocabulary.cities)))
        let price = [100, 500, 1_000, 2_500, 5_000, 12_000, 30_000, 90_000][random.below(8)] + random.below(100) * 50
        return Product(
            id: id(), sellerId: random.pick(sellers), title: title, description: sentences.joined(separator: " "),
            priceCents: price, currency: "EUR", createdAt: start + Double(index) * 60)
    }

    /// Whether the product at `index` is sold when a `share` (0 to 1) of them are: a fixed
    /// scramble of the index, so which ones are sold does not depend on anything else generated.
    static func isSold(_ index: Int, share: Double) -> Bool {
        guard share > 0 else { return false }
        let scrambled = (UInt64(index) &* 0x9E37_79B9_7F4A_7C15) >> 40
        return Double(scrambled % 10_000) < share * 10_000
    }

    /// One to three photos of `product` when a `share` (0 to 1) of listings have them, else none.
    mutating func photos(of product: Product, share: Double) -> [BulkProductPhoto] {
        guard Double(random.below(1_000)) < share * 1_000 else { return [] }
        return (0..<1 + random.below(3)).map { _ in
            let colours = (0..<6).map { _ in UInt8(40 + random.below(200)) }
            let image = GeneratedPhoto.png(from: Array(colours[0..<3]), to: Array(colours[3..<6]))
            // So small and plain (no metadata, within every size) that it serves as each size
            // as it is: a million listings are not run through the image pipeline.
            let stored = StoredPhoto(mediaType: "image/png", data: image, updatedAt: product.createdAt)
            return BulkProductPhoto(
                productId: product.id,
                photo: NewProductPhoto(
                    id: id(),
                    sizes: PhotoSizes(
                        full: stored, medium: stored, thumb: stored,
                        dimensions: PixelSize(width: GeneratedPhoto.width, height: GeneratedPhoto.height))))
        }
    }

    /// A conversation about `product` between its seller and `buyer`, of `length` messages.
    mutating func conversation(about product: Product, buyer: String, length: Int, at time: Date) -> BulkConversation {
        let messages = (0..<length).map { index in
            let text = Vocabulary.messages[index % Vocabulary.messages.count]
                .replacingOccurrences(of: "{price}", with: "€\(max(1, product.priceCents / 120))")
                .replacingOccurrences(of: "{accessory}", with: "the original box")
            return BulkMessage(
                id: id(), senderId: index % 2 == 0 ? buyer : product.sellerId, body: text,
                createdAt: time + Double(index) * 30)
        }
        return BulkConversation(
            id: id(), userIds: (buyer, product.sellerId), productId: product.id, createdAt: time, messages: messages)
    }
}

extension String {
    /// The same text with its first letter upper-cased.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
