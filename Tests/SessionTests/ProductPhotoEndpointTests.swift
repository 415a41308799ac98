import BazaarAPI
import Foundation
import Networking
import Session
import Synchronization
import TestSupport
import Testing

@Suite("Product photo endpoints against the real bazaar-server", .timeLimit(.minutes(2)))
struct ProductPhotoEndpointTests {
    @Test("a seller uploads with progress to 100%, reorders and removes; every size is fetched back")
    func uploadReorderRemove() async throws {
        try await SessionFixture.with { fixture in
            _ = try await fixture.raw.register("pia", password: "password123")
            let session = try await fixture.starter().login(username: "pia", password: "password123")
            let network = session.network
            let product = try await network.request(
                BazaarEndpoints.createProduct(
                    CreateProductRequest(title: "Desk", description: "", priceCents: 900, currency: "EUR")))
            let image = TestImages.jpeg(width: 1600, height: 1200, grain: 30)
            #expect(image.count > 500_000, "large enough for progress along the way: \(image.count)")
            let fractions = Mutex<[Double]>([])
            let first = try await network.request(
                BazaarEndpoints.addProductPhoto(productId: product.id, image: image, mediaType: .jpeg),
                progress: { report in
                    if report.direction == .upload, let fraction = report.fractionCompleted {
                        fractions.withLock { $0.append(fraction) }
                    }
                })
            let seen = fractions.withLock { $0 }
            #expect(seen.count > 1, "progress along the way, not only at the end")
            #expect(seen.last == 1)
            let png = TestImages.png()
            let both = try await network.request(
                BazaarEndpoints.addProductPhoto(productId: product.id, image: png, mediaType: .png))
            #expect(both.photoURLs.count == 2 && both.photoURLs[0] == first.photoURLs[0])
            let ids = both.photoURLs.map { String($0.split(separator: "/").last ?? "") }
            let reordered = try await network.request(
                BazaarEndpoints.reorderProductPhotos(productId: product.id, photoIds: ids.reversed()))
            #expect(reordered.photoURLs == both.photoURLs.reversed())
            let removed = try await network.request(
                BazaarEndpoints.removeProductPhoto(productId: product.id, photoId: ids[1]))
            #expect(removed.photoURLs == [first.photoURLs[0]])
            let photo = try #require(removed.photos.first)
            #expect(photo.width == 1600 && photo.height == 1200)
            for size in PhotoSize.allCases {
                let fetched = try await fixture.raw.get(photo.url(size))
                #expect(fetched.status == 200 && fetched.header("Content-Type") == "image/jpeg", "\(size)")
            }
        }
    }
}
