import BazaarAPI
import BazaarDomain
import BazaarStorage
import DemoPictures
import Foundation
import Logging
import NIOPosix

/// Fills an empty database with demo users, products and a conversation (`--seed-demo`).
///
/// Demo accounts: `ada`, `bob` and `cyd`, each with the password `bazaar-demo`.
struct DemoSeeder {
    let deps: ServerDependencies

    /// The password of every demo account.
    static let password = "bazaar-demo"

    func seedIfEmpty() async throws {
        guard try await deps.store.user(username: "ada") == nil else { return }
        let hash = try await deps.hasher.hash(Self.password)
        var users: [String: User] = [:]
        for (index, (username, name)) in [("ada", "Ada Lovelace"), ("bob", "Bob Diddley"), ("cyd", "Cyd Charisse")]
            .enumerated()
        {
            do {
                let record = try await deps.store.createUser(
                    NewUser(
                        id: deps.newId(), username: username, displayName: name, passwordHash: hash,
                        createdAt: deps.now()))
                users[username] = record.user
                let portrait = try await draw(.portrait, colour: DemoPicture.palette[index + 1], width: 480)
                _ = try await deps.store.setPhoto(userId: record.user.id, photo: try await sizes(of: portrait))
            } catch StoreError.conflict {
                // Another replica started with --seed-demo at the same moment and is seeding.
                return
            }
        }
        guard let ada = users["ada"], let bob = users["bob"] else { return }
        let listings: [(User, String, String, Int, String)] = [
            (ada, "Road bike", "Steel frame, 54 cm, new tyres.", 25_000, "EUR"),
            (ada, "Espresso machine", "Works, descaled last month.", 8_000, "EUR"),
            (bob, "Guitar amplifier", "15 W valve amp, a little hum.", 12_000, "EUR"),
            (bob, "Vinyl records (box)", "About 40 records, mostly blues.", 4_500, "EUR"),
            (ada, "Desk lamp", "Anglepoise style, in purple.", 1_500, "EUR"),
        ]
        var products: [Product] = []
        for (index, (seller, title, description, price, currency)) in listings.enumerated() {
            let product = Product(
                id: deps.newId(), sellerId: seller.id, title: title, description: description, priceCents: price,
                currency: currency, createdAt: deps.now())
            try await deps.store.createProduct(product)
            products.append(product)
            // Each listing's photo drawn in a colour of its own.
            let png = try await draw(
                DemoPicture.named(by: title) ?? .records, colour: DemoPicture.palette[index % DemoPicture.palette.count]
            )
            _ = try await deps.store.addProductPhoto(
                productId: product.id, sellerId: seller.id,
                photo: NewProductPhoto(id: deps.newId(), sizes: try await sizes(of: png)))
        }
        let conversation = try await deps.store.openConversation(
            between: bob.id, and: ada.id, productId: products.first?.id, newId: deps.newId(), now: deps.now()
        ).conversation
        for (sender, body) in [
            (bob, "Hi! Is the road bike still available?"), (ada, "Yes, come and try it on Saturday."),
        ] {
            _ = try await deps.services.messages.send(
                body, idempotencyKey: "seed-" + deps.newId(), to: conversation.id, from: sender.id)
        }
        deps.logger.notice("seeded demo data", metadata: ["users": "ada, bob, cyd"])
    }

    /// A demo picture as a PNG, drawn off the cooperative pool (a tenth of a second of work each,
    /// which would hold one of its threads).
    private func draw(_ picture: DemoPicture, colour: RGB, width: Int = 800) async throws -> Data {
        try await NIOThreadPool.singleton.runIfActive { Data(picture.png(colour: colour, width: width)) }
    }

    /// The sizes of a demo picture, made as an upload's are.
    private func sizes(of png: Data) async throws -> PhotoSizes {
        try await UploadedImage.sizes(of: png, processor: deps.photos, now: deps.now())
    }
}
