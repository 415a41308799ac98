import BazaarAPI
import Dependencies
import Foundation
import Networking
import Products
import Session
import Synchronization
import TestSupport
import Testing

@Suite("Listing photos from the kit, against the real bazaar-server", .timeLimit(.minutes(2)))
struct ListingPhotoTests {
    static func photo(_ width: Int, _ height: Int) throws -> PhotoToSend {
        try #require(PhotoToSend(sniffing: TestImages.jpeg(width: width, height: height, grain: 0.2)))
    }

    @Test("selling with photos lists the product, then uploads each photo in order with progress that only grows")
    func sellWithPhotos() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await fixture.starter().register(
                username: "sam", password: "password123", displayName: "Sam")
            let logic = SellLogicController(session: seller)
            let seen = Mutex<[PhotoUploadProgress]>([])
            let states = await logic.states()
            let watching = Task {
                for await state in states {
                    if let uploading = state.content?.uploading { seen.withLock { $0.append(uploading) } }
                }
            }
            let draft = SellDraft(
                title: "Lamp", price: "12", photos: [try Self.photo(1200, 800), try Self.photo(300, 600)])
            let content = try #require(await logic.send(.sell(draft)).content)
            watching.cancel()
            let listed = try #require(content.listed)
            #expect(content.photoProblems.isEmpty)
            #expect(listed.photos.map { [$0.width, $0.height] } == [[1200, 800], [300, 600]], "the cover first")
            let overall = seen.withLock { $0 }.map(\.overall)
            #expect(overall.first == 0)
            #expect(overall == overall.sorted(), "progress never goes back")
            #expect(Set(seen.withLock { $0 }.map(\.number)) == [1, 2])
            let served = try await fixture.raw.get(try #require(listed.photos.first).thumbURL)
            #expect(served.status == 200)
        }
    }

    @Test("a photo the server refuses is named and the others are kept; the product stays listed")
    func refusedPhotoIsNamed() async throws {
        try await SessionFixture.with { fixture in
            let seller = try await fixture.starter().register(
                username: "sid", password: "password123", displayName: "Sid")
            let notAnImage = PhotoToSend(data: Data("just text".utf8), mediaType: .jpeg)
            let draft = SellDraft(title: "Chair", price: "30", photos: [notAnImage, try Self.photo(640, 480)])
            let content = try #require(await SellLogicController(session: seller).send(.sell(draft)).content)
            #expect(content.listed?.photos.count == 1)
            #expect(content.photoProblems.count == 1)
            #expect(content.photoProblems.first?.hasPrefix("Photo 1 was not added") == true)
        }
    }

    @Test("the seller adds photos to a listing, moves one to the cover, removes one; past eight the form says so")
    func addMoveRemove() async throws {
        try await SessionFixture.with { fixture in
            let starter = fixture.starter()
            let seller = try await starter.register(username: "sue", password: "password123", displayName: "Sue")
            let product = try await fixture.raw.createProduct(
                "Desk", token: try await seller.network.session.validTokens().accessToken)
            let logic = ListingLogicController(
                session: seller, publicNetwork: starter.publicNetwork, productID: product.id)
            let added = try #require(
                await logic.send(
                    .addPhotos([try Self.photo(400, 300), try Self.photo(300, 400), try Self.photo(500, 500)])
                )
                .content)
            #expect(added.product.photos.count == 3)
            #expect(added.photoRoom == Product.photoLimit - 3)
            let ids = added.product.photos.map(\.id)
            let moved = try #require(await logic.send(.movePhoto(ids[2], to: 0)).content)
            #expect(moved.product.photos.map(\.id) == [ids[2], ids[0], ids[1]])
            let removed = try #require(await logic.send(.removePhoto(ids[0])).content)
            #expect(removed.product.photos.map(\.id) == [ids[2], ids[1]])
            let asBuyersSee = try await starter.publicNetwork.request(BazaarEndpoints.product(id: product.id))
            #expect(asBuyersSee.photos.map(\.id) == [ids[2], ids[1]], "buyers see the seller's order")

            let tooMany = try #require(
                await logic.send(.addPhotos(Array(repeating: try Self.photo(64, 64), count: 7))).content)
            #expect(tooMany.photoProblems == ["A listing has at most 8 photos: this one has room for 6 more."])
            #expect(tooMany.product.photos.count == 2, "nothing was sent")
            let unknown = await logic.send(.movePhoto("no-such-photo", to: 0))
            #expect(unknown.error?.kind == .notFound)
        }
    }

    @Test("someone else's listing's photos cannot be changed: to them the listing does not exist")
    func strangerCannotChangePhotos() async throws {
        try await SessionFixture.with { fixture in
            let starter = fixture.starter()
            let owner = try await fixture.raw.register("olive")
            let product = try await fixture.raw.createProduct("Vase", token: owner.tokens.accessToken)
            let stranger = try await starter.register(username: "mal", password: "password123", displayName: "Mal")
            let logic = ListingLogicController(
                session: stranger, publicNetwork: starter.publicNetwork, productID: product.id)
            let state = await logic.send(.addPhotos([try Self.photo(64, 64)]))
            #expect(state.error?.kind == .notFound)
        }
    }
}
