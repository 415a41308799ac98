import BazaarAPI
import BazaarServer
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// `bazaar-server photos rebuild`, run as the operator runs it against the database a server is
/// serving, on both engines: photos uploaded before sizes get them, once.
@Suite("bazaar-server photos rebuild", .timeLimit(.minutes(2)))
struct PhotoRebuildCommandTests {
    @Test(arguments: StorageKind.available)
    func photosFromBeforeSizesAreConvertedOnceTheUnreadableNamedAndLeft(storage: StorageKind) async throws {
        try await storage.withConfiguration { configuration in
            let database = configuration.databaseArguments
            let secret = "GPS-\(UUID().uuidString)"
            // Ids in the order the rebuild walks them: the readable photo, then the unreadable one.
            let (good, bad) = ("aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002")
            let turned = TestImages.jpegWithMetadata(width: 400, height: 200, orientation: 6, secret: secret)
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                let ada = try await client.register("ada")
                let desk = try await client.createProduct("Desk", token: ada.tokens.accessToken)
                try await UnsizedPhotoFixture.addProductPhoto(
                    configuration, productId: desk.id, photoId: good, data: turned)
                try await UnsizedPhotoFixture.addProductPhoto(
                    configuration, productId: desk.id, photoId: bad, data: Data("not a photo".utf8))
                try await UnsizedPhotoFixture.setProfilePhoto(configuration, userId: ada.user.id, data: turned)
                let before = try await client.get(APIRoutes.productPhoto.path(desk.id, good) + "?size=thumb")
                #expect(before.body == turned, "until rebuilt, an old upload serves as every size")

                let tool = BazaarCLI(executable: "bazaar-server")
                let first = try await tool.run(["photos", "rebuild"] + database)
                #expect(first.exitCode == 65, "\(first.stderr)")
                #expect(first.stdout.contains("photos rebuilt: 2 converted, 1 unreadable"), "\(first.stdout)")
                #expect(first.stderr.contains("product \(desk.id) photo \(bad)"), "\(first.stderr)")

                for size in PhotoSize.allCases {
                    let served = try await client.get(size.url(APIRoutes.productPhoto.path(desk.id, good)))
                    expectStatus(served, 200)
                    #expect(served.body.range(of: Data(secret.utf8)) == nil, "\(size) keeps no metadata")
                    #expect(served.header("Content-Type") == "image/jpeg")
                }
                let profile = try await client.get(APIRoutes.user.path(ada.user.id)).decode(User.self)
                let photoURL = try #require(profile.photoURL)
                #expect(!photoURL.contains("legacy"), "the profile photo's URL names its new version")
                let thumb = try await client.get(PhotoSize.thumb.url(photoURL))
                #expect(thumb.body.range(of: Data(secret.utf8)) == nil)

                let again = try await tool.run(["photos", "rebuild"] + database)
                #expect(again.stdout.contains("photos rebuilt: 0 converted, 1 unreadable"), "\(again.stdout)")
                #expect(again.exitCode == 65)
            }
            // Restarted, the server shows the dimensions, orientation applied: 400 × 200 turned.
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                let page = try await client.get(APIRoutes.products.template).decode(Page<Product>.self)
                let photos = try #require(page.items.first?.photos)
                #expect(photos.map(\.id) == [good, bad])
                #expect(photos.first.map { [$0.width, $0.height] } == [200, 400])
                #expect(photos.last?.width == nil, "the unreadable one is left as it was")
            }
        }
    }
}
