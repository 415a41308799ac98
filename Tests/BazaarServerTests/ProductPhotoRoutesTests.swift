import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// `/v1/products/{id}/photos*` over HTTP on every backend.
@Suite("Product photo routes")
struct ProductPhotoRoutesTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 1, count: 300))
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 2, count: 300))
    static let webp = Data(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + [UInt8](repeating: 3, count: 300))

    static func add(_ client: BazaarTestClient, _ product: Product, _ image: Data, type: String, token: String)
        async throws -> TestResponse
    {
        try await client.send(
            .POST, APIRoutes.addProductPhoto.path(product.id), rawBody: image, contentType: type, token: token)
    }

    static func photoId(_ url: String) -> String { String(url.split(separator: "/").last ?? "") }

    @Test(
        "a seller's product photos are capped in bytes over all their products: past 64 MiB an upload is 422, and another seller still uploads",
        arguments: StorageKind.available)
    func photoBytesAreCappedPerSeller(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let seller = try await client.register("sid")
            let token = seller.tokens.accessToken
            let almostFiveMiB = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: (5 << 20) - 1024))
            let perProduct = 8
            let fit = (64 << 20) / almostFiveMiB.count  // 12 uploads fit
            var products: [Product] = []
            for index in 0..<(fit / perProduct + 1) {
                products.append(try await client.createProduct("Desk \(index)", token: token))
            }
            for index in 0..<fit {
                expectStatus(
                    try await Self.add(
                        client, products[index / perProduct], almostFiveMiB, type: "image/jpeg", token: token),
                    201)
            }
            let over = try await Self.add(
                client, products[fit / perProduct], almostFiveMiB, type: "image/jpeg", token: token)
            expectError(over, 422, code: "invalid_field")
            #expect(over.text.contains("64 MiB"), "\(over.text)")
            // A small one still fits, and the cap is the seller's own.
            expectStatus(
                try await Self.add(client, products[fit / perProduct], Self.jpeg, type: "image/jpeg", token: token), 201
            )
            let other = try await client.register("ola")
            let theirs = try await client.createProduct("Chair", token: other.tokens.accessToken)
            expectStatus(
                try await Self.add(client, theirs, almostFiveMiB, type: "image/jpeg", token: other.tokens.accessToken),
                201)
        }
    }

    @Test(
        "a seller adds, reads back, reorders and removes photos; lists and the product show them, cover first",
        arguments: StorageKind.available)
    func addReorderRemove(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let seller = try await client.register("sid")
            let token = seller.tokens.accessToken
            let product = try await client.createProduct("Oak desk", token: token)
            #expect(product.photoURLs.isEmpty)
            var latest = product
            for (image, type) in [(Self.jpeg, "image/jpeg"), (Self.png, "image/png"), (Self.webp, "image/webp")] {
                let added = try await Self.add(client, product, image, type: type, token: token)
                expectStatus(added, 201)
                latest = try added.decode(Product.self)
            }
            #expect(latest.photoURLs.count == 3)
            #expect(latest.photoURLs.allSatisfy { $0.hasPrefix("/v1/products/\(product.id)/photos/") })
            for (url, (image, type)) in zip(
                latest.photoURLs, [(Self.jpeg, "image/jpeg"), (Self.png, "image/png"), (Self.webp, "image/webp")])
            {
                let served = try await client.get(url)
                expectStatus(served, 200)
                #expect(served.body == image)
                #expect(served.headers.first(name: "Content-Type") == type)
                #expect(served.headers.first(name: "Cache-Control") == "public, max-age=31536000, immutable")
                let etag = try #require(served.headers.first(name: "ETag"))
                expectStatus(try await client.get(url, headers: [("If-None-Match", etag)]), 304)
            }
            let ids = latest.photoURLs.map(Self.photoId)
            let reordered = try await client.send(
                .PUT, APIRoutes.reorderProductPhotos.path(product.id),
                json: ReorderPhotosRequest(photoIds: [ids[2], ids[0], ids[1]]),
                token: token)
            expectStatus(reordered, 200)
            #expect(try reordered.decode(Product.self).photoURLs.map(Self.photoId) == [ids[2], ids[0], ids[1]])
            let removed = try await client.send(
                .DELETE, APIRoutes.removeProductPhoto.path(product.id, ids[0]), token: token)
            expectStatus(removed, 200)
            let after = try removed.decode(Product.self)
            #expect(after.photoURLs.map(Self.photoId) == [ids[2], ids[1]])
            expectError(try await client.get(APIRoutes.productPhoto.path(product.id, ids[0])), 404)
            // Everyone sees the new order at once: the server's cached pages were dropped.
            #expect(try await client.get(APIRoutes.product.path(product.id)).decode(Product.self) == after)
            let listed = try await client.get(APIRoutes.products.template + "?query=desk").decode(Page<Product>.self)
            #expect(listed.items.first?.photoURLs == after.photoURLs)
        }
    }

    @Test(
        "the ninth photo, a wrong order, fake content and a wrong type are refused; nothing is lost",
        arguments: StorageKind.available)
    func limitsAndContent(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let seller = try await client.register("sue")
            let token = seller.tokens.accessToken
            let product = try await client.createProduct("Lamp", token: token)
            var latest = product
            for _ in 0..<8 {
                latest = try await Self.add(client, product, Self.png, type: "image/png", token: token).decode(
                    Product.self)
            }
            expectError(
                try await Self.add(client, product, Self.png, type: "image/png", token: token), 422,
                code: "invalid_field")
            let ids = latest.photoURLs.map(Self.photoId)
            for bad in [
                Array(ids.dropLast()), ids + [ids[0]], Array(ids.dropLast()) + ["not-one"],
                Array(ids.dropLast()) + [ids[0]],
            ] {
                expectError(
                    try await client.send(
                        .PUT, APIRoutes.reorderProductPhotos.path(product.id),
                        json: ReorderPhotosRequest(photoIds: bad), token: token),
                    422, code: "invalid_field")
            }
            let other = try await client.createProduct("Chair", token: token)
            expectError(
                try await Self.add(client, other, Data("GIF89a-not-allowed".utf8), type: "image/png", token: token), 415
            )
            expectError(try await Self.add(client, other, Self.jpeg, type: "image/gif", token: token), 415)
            let tooBig = Data([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 5 * 1024 * 1024))
            expectError(try await Self.add(client, other, tooBig, type: "image/jpeg", token: token), 413)
            #expect(
                try await client.get(APIRoutes.product.path(product.id)).decode(Product.self).photoURLs
                    == latest.photoURLs)
            #expect(try await client.get(APIRoutes.product.path(other.id)).decode(Product.self).photoURLs.isEmpty)
        }
    }

    @Test(
        "for anyone but the seller the photos cannot be changed: 404; without a token 401",
        arguments: StorageKind.available)
    func onlyTheSeller(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let seller = try await client.register("sam")
            let stranger = try await client.register("eve")
            let product = try await client.createProduct("Bike", token: seller.tokens.accessToken)
            let added = try await Self.add(
                client, product, Self.jpeg, type: "image/jpeg", token: seller.tokens.accessToken
            )
            .decode(Product.self)
            let id = Self.photoId(added.photoURLs[0])
            let token = stranger.tokens.accessToken
            expectError(try await Self.add(client, product, Self.jpeg, type: "image/jpeg", token: token), 404)
            expectError(
                try await client.send(.DELETE, APIRoutes.removeProductPhoto.path(product.id, id), token: token), 404)
            expectError(
                try await client.send(
                    .PUT, APIRoutes.reorderProductPhotos.path(product.id), json: ReorderPhotosRequest(photoIds: [id]),
                    token: token),
                404)
            expectError(try await client.send(.DELETE, APIRoutes.removeProductPhoto.path(product.id, id)), 401)
            expectError(
                try await Self.add(
                    client,
                    Product(
                        id: UUID().uuidString.lowercased(), sellerId: "", title: "", description: "", priceCents: 0,
                        currency: "EUR",
                        createdAt: Date()), Self.jpeg, type: "image/jpeg", token: seller.tokens.accessToken), 404)
            // Another product's id with this photo: not found either.
            let other = try await client.createProduct("Lamp", token: seller.tokens.accessToken)
            expectError(try await client.get(APIRoutes.productPhoto.path(other.id, id)), 404)
            #expect(
                try await client.get(APIRoutes.product.path(product.id)).decode(Product.self).photoURLs
                    == added.photoURLs)
        }
    }
}
