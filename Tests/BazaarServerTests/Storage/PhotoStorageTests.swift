import BazaarAPI
import BazaarServer
import BazaarServerRuntime
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// Photo sizes as both stores keep them: every size under its photo, the per-seller allowance,
/// and photos from before sizes until the operator's rebuild gives them sizes.
@Suite("Photo sizes in storage")
struct PhotoStorageTests {
    @Test(arguments: StorageKind.available)
    func aSellersProductPhotosAreCappedInBytesOverAllTheirProductsEverySizeCounted(storage: StorageKind)
        async throws
    {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let seller = try await fixtures.user("sid")
            // 600 + 300 + 150 KiB a photo: six fit in an allowance of 6.4 MiB, the seventh does not.
            let big = fixtures.sizes("big", bytes: 600 << 10)
            let allowance = 6_400 << 10
            let desks = [
                try await fixtures.product("Desk", seller: seller),
                try await fixtures.product("Desk 2", seller: seller),
            ]
            for index in 0..<6 {
                let change = try await store.addProductPhoto(
                    productId: desks[index % 2].id, sellerId: seller.id,
                    photo: NewProductPhoto(id: StoreFixtures.id(), sizes: big, allowance: allowance))
                guard case .changed = change else {
                    Issue.record("photo \(index + 1): \(change)")
                    return
                }
            }
            let over = try await store.addProductPhoto(
                productId: desks[1].id, sellerId: seller.id,
                photo: NewProductPhoto(id: StoreFixtures.id(), sizes: big, allowance: allowance))
            #expect(over == .storageFull)
            let small = try await store.addProductPhoto(
                productId: desks[1].id, sellerId: seller.id,
                photo: NewProductPhoto(id: StoreFixtures.id(), sizes: fixtures.sizes("small"), allowance: allowance))
            guard case .changed = small else { throw StoreError.corrupt("a small photo still fits: \(small)") }
            let other = try await fixtures.user("ola")
            let chair = try await fixtures.product("Chair", seller: other)
            let theirs = try await store.addProductPhoto(
                productId: chair.id, sellerId: other.id,
                photo: NewProductPhoto(id: StoreFixtures.id(), sizes: big, allowance: allowance))
            guard case .changed = theirs else { throw StoreError.corrupt("the cap is the seller's own: \(theirs)") }
        }
    }

    @Test(arguments: StorageKind.available)
    func aProductPhotoIsServedInEverySizeAndRemovedWithAllOfThem(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let seller = try await fixtures.user("sid")
            let desk = try await fixtures.product("Desk", seller: seller)
            let sizes = fixtures.sizes("desk")
            let photo = NewProductPhoto(id: StoreFixtures.id(), sizes: sizes)
            guard
                case .changed(let product) = try await store.addProductPhoto(
                    productId: desk.id, sellerId: seller.id, photo: photo)
            else { throw StoreError.corrupt("not added") }
            #expect(product.photos.map { [$0.width, $0.height] } == [[2048, 1365]])
            #expect(try await store.product(id: desk.id)?.photos == product.photos)
            for size in PhotoSize.allCases {
                #expect(
                    try await store.productPhoto(productId: desk.id, photoId: photo.id, size: size) == sizes[size])
            }
            #expect(try await store.productPhoto(productId: "other", photoId: photo.id, size: .thumb) == nil)
            _ = try await store.removeProductPhoto(productId: desk.id, sellerId: seller.id, photoId: photo.id)
            for size in PhotoSize.allCases {
                #expect(try await store.productPhoto(productId: desk.id, photoId: photo.id, size: size) == nil)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func aPhotoFromBeforeSizesServesAsItCameUntilItsSizesAreStoredOnceAndItsUploadIsEmptied(
        storage: StorageKind
    ) async throws {
        try await storage.withConfiguration { configuration in
            let backend = try await StorageEngines.openStore(
                configuration: configuration, logger: TestServer.quietLogger(label: "photo-storage"))
            do {
                try await Self.rebuildUnsized(backend.store, configuration: configuration)
            } catch {
                await backend.close()
                throw error
            }
            await backend.close()
        }
    }

    private static func rebuildUnsized(_ store: any BazaarStore, configuration: BazaarServerConfiguration)
        async throws
    {
        let fixtures = StoreFixtures(store)
        let seller = try await fixtures.user("sid")
        let desk = try await fixtures.product("Desk", seller: seller)
        let upload = Data("an upload from before sizes".utf8)
        let ids = ["a1", "b2"]
        for id in ids {
            try await UnsizedPhotoFixture.addProductPhoto(
                configuration, productId: desk.id, photoId: id, data: upload)
        }
        try await UnsizedPhotoFixture.setProfilePhoto(configuration, userId: seller.id, data: upload)

        let listed = try #require(try await store.product(id: desk.id)).photos
        #expect(listed.map(\.id) == ids && listed.allSatisfy { $0.width == nil && $0.height == nil })
        #expect(try await store.productPhoto(productId: desk.id, photoId: "a1", size: .thumb)?.data == upload)
        #expect(try await store.photo(userId: seller.id, size: .medium)?.data == upload)

        let unsized = try await store.unsizedPhotos(after: nil, limit: 10)
        #expect(unsized.map(\.owner.photoId) == (ids + [seller.id]).sorted())
        #expect(unsized.allSatisfy { $0.data == upload })
        let firstPage = try await store.unsizedPhotos(after: nil, limit: 1)
        let secondPage = try await store.unsizedPhotos(after: firstPage.last?.owner.photoId, limit: 1)
        #expect(secondPage.map(\.owner.photoId) == [unsized[1].owner.photoId], "pages by photo id")

        let sizes = fixtures.sizes("rebuilt")
        for photo in unsized {
            #expect(try await store.storeSizes(sizes, of: photo.owner))
            #expect(try await !store.storeSizes(sizes, of: photo.owner), "once: the second finds it sized")
        }
        #expect(try await store.unsizedPhotos(after: nil, limit: 10).isEmpty)
        let product = try #require(try await store.product(id: desk.id))
        #expect(product.photos.map(\.id) == ids && product.photos.allSatisfy { $0.width == 2048 })
        for size in PhotoSize.allCases {
            // The upload's time stays the upload's.
            let product = try await store.productPhoto(productId: desk.id, photoId: "b2", size: size)
            #expect(
                product.map { [$0.data, Data($0.digest.utf8)] } == [sizes[size].data, Data(sizes[size].digest.utf8)])
            let profile = try await store.photo(userId: seller.id, size: size)
            #expect(profile?.data == sizes[size].data && profile?.mediaType == sizes[size].mediaType)
        }
        let user = try #require(try await store.user(id: seller.id))
        #expect(user.user.photoURL?.contains(String(sizes.full.digest.prefix(16))) == true)
        #expect(try await !store.storeSizes(sizes, of: .profile(userId: "nobody")))
    }
}
