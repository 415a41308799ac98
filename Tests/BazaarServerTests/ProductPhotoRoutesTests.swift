import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@testable import BazaarServer

/// `/v1/products/{id}/photos*` over HTTP on every backend.
@Suite("Product photo routes")
struct ProductPhotoRoutesTests {
    static let jpeg = TestImages.jpeg(width: 1200, height: 900)
    static let png = TestImages.png(width: 300, height: 400)
    static let webp = TestImages.webp(width: 2400, height: 1200)

    static func add(_ client: BazaarTestClient, _ product: Product, _ image: Data, type: String, token: String)
        async throws -> TestResponse
    {
        try await client.send(
            .POST, APIRoutes.addProductPhoto.path(product.id), rawBody: image, contentType: type, token: token)
    }

    static func photoId(_ url: String) -> String { String(url.split(separator: "/").last ?? "") }

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
            #expect(latest.photos.map(\.fullURL) == latest.photoURLs, "photoURLs stays, as the full ones")
            let dimensions = latest.photos.map { [$0.width, $0.height] }
            #expect(dimensions == [[1200, 900], [300, 400], [2048, 1024]], "each full size, never enlarged")
            for (photo, image) in zip(latest.photos, [Self.jpeg, Self.png, Self.webp]) {
                var etags: Set<String> = []
                for size in PhotoSize.allCases {
                    let url = photo.url(size)
                    let served = try await client.get(url)
                    expectStatus(served, 200)
                    #expect(served.body != image, "re-encoded, never the upload")
                    #expect(served.headers.first(name: "Content-Type") == "image/jpeg")
                    #expect(served.headers.first(name: "Cache-Control") == "public, max-age=31536000, immutable")
                    let etag = try #require(served.headers.first(name: "ETag"))
                    etags.insert(etag)
                    expectStatus(try await client.get(url, headers: [("If-None-Match", etag)]), 304)
                }
                #expect(etags.count == 3, "each size its own strong ETag")
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
        "the ninth photo, a wrong order, what is not an image and a wrong type are refused; nothing is lost",
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
                try await Self.add(client, other, Data("GIF89a-not-allowed".utf8), type: "image/png", token: token),
                422,
                code: "invalid_image")
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

    @Test(
        "a photo answers Range: 206 with the bytes asked for, 416 past its end, and the whole photo when If-Range names another version",
        arguments: StorageKind.available)
    func rangeRequests(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let seller = try await client.register("rae")
            let product = try await client.createProduct("Lamp", token: seller.tokens.accessToken)
            let added = try await Self.add(
                client, product, Self.jpeg, type: "image/jpeg", token: seller.tokens.accessToken)
            let url = try added.decode(Product.self).photoURLs[0]
            let whole = try await client.get(url)
            expectStatus(whole, 200)
            #expect(whole.headers.first(name: "Accept-Ranges") == "bytes")
            let etag = try #require(whole.headers.first(name: "ETag"))
            let length = whole.body.count

            let middle = try await client.get(url, headers: [("Range", "bytes=100-1099"), ("If-Range", etag)])
            expectStatus(middle, 206)
            #expect(middle.body == whole.body[100..<1100])
            #expect(middle.headers.first(name: "Content-Range") == "bytes 100-1099/\(length)")
            let rest = try await client.get(url, headers: [("Range", "bytes=1100-")])
            expectStatus(rest, 206)
            #expect(whole.body[0..<100] + middle.body + rest.body == whole.body, "the parts make the photo again")
            let tail = try await client.get(url, headers: [("Range", "bytes=-10")])
            #expect(tail.body == whole.body.suffix(10))

            let past = try await client.get(url, headers: [("Range", "bytes=\(length)-")])
            expectStatus(past, 416)
            #expect(past.headers.first(name: "Content-Range") == "bytes */\(length)")
            let changed = try await client.get(url, headers: [("Range", "bytes=100-"), ("If-Range", "\"other\"")])
            expectStatus(changed, 200)
            #expect(changed.body == whole.body)
        }
    }

    @Test("Range headers are read as RFC 9110 says, and anything else means the whole body")
    func rangeHeaderParsing() {
        let cases: [(String, ByteRangeRequest)] = [
            ("bytes=0-9", .part(0...9)), ("bytes=5-", .part(5...99)), ("bytes=-10", .part(90...99)),
            ("bytes=90-500", .part(90...99)), ("bytes=-500", .part(0...99)), ("bytes=100-", .unsatisfiable),
            ("bytes=-0", .unsatisfiable), ("bytes=9-5", .whole), ("bytes=0-1,5-6", .whole), ("items=0-5", .whole),
            ("bytes=x-5", .whole), ("bytes=-", .whole),
        ]
        for (header, expected) in cases {
            #expect(ByteRangeRequest(header: header, length: 100) == expected, "\(header)")
        }
    }
}
