import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import Networking
import Testing

@testable import BazaarApp

/// Renderers draw states and nothing else: these pin what a person sees for given content.
@Suite("Screen renderers")
struct RendererTests {
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    static let ada = User(
        id: "u-ada", username: "ada", displayName: "Ada Lovelace", bio: nil, photoURL: nil, createdAt: epoch)
    static let bob = User(
        id: "u-bob", username: "bob", displayName: "Bob", bio: "Bikes", photoURL: nil, createdAt: epoch)
    static let bike = Product(
        id: "p-1", sellerId: "u-ada", title: "Road bike", description: "Steel frame", priceCents: 25_000,
        currency: "EUR",
        createdAt: epoch)

    @Test("the product list shows title and price, and says when more can be loaded")
    func productList() {
        let content = ProductListContent(products: [Self.bike], query: "bike", hasMore: true)
        let lines = ProductListRenderer().lines(for: content, limit: 20, width: 80).map(\.description)
        #expect(lines[0].hasPrefix("ID"))
        #expect(lines[1].contains("Road bike") && lines[1].contains("€250.00"))
        #expect(lines.last == "1 product matching “bike”; more with --limit")
    }

    @Test("the list counts photos and a product's page gives their full URLs, the cover first")
    func photos() throws {
        var bike = Self.bike
        bike.photos = ["f1", "f2"].map {
            Photo(id: $0, width: 1200, height: 800, fullURL: "/v1/products/p-1/photos/\($0)")
        }
        let list = ProductListRenderer().lines(
            for: ProductListContent(products: [bike], query: nil, hasMore: false), limit: 5, width: 80
        )
        .map(\.description)
        #expect(list[0].contains("PHOTOS"))
        #expect(list[1].contains(" 2 "))
        let server = try #require(URL(string: "http://127.0.0.1:8080"))
        let page = ProductDetailRenderer().lines(
            for: ProductDetailContent(product: bike, seller: Self.ada), server: server, width: 100
        )
        .map(\.description)
        #expect(page.contains { $0.contains("Photos") && $0.contains("2") })
        #expect(
            page.contains { $0.contains("Cover") && $0.contains("http://127.0.0.1:8080/v1/products/p-1/photos/f1") })
        #expect(
            page.contains { $0.contains("Photo 2") && $0.contains("http://127.0.0.1:8080/v1/products/p-1/photos/f2") })
    }

    @Test("an empty search says nothing matched")
    func emptySearch() {
        let lines = ProductListRenderer().lines(
            for: ProductListContent(products: [], query: "zeppelin", hasMore: false), limit: 5, width: nil)
        #expect(lines.map(\.description) == ["No products match “zeppelin”."])
    }

    @Test("messages read 'You' for the signed-in user, the other's name otherwise, and queued ones say so")
    func messages() {
        let conversation = Conversation(
            id: "c-1", otherUser: Self.ada, product: Self.bike, lastMessage: nil, unreadCount: 0, updatedAt: Self.epoch)
        let mine = Message(
            id: "m-1", conversationId: "c-1", senderId: "u-bob", body: "Still there?", createdAt: Self.epoch)
        let theirs = Message(id: "m-2", conversationId: "c-1", senderId: "u-ada", body: "Yes!", createdAt: Self.epoch)
        let queued = OutboxEntry(
            id: "o-1", recipient: .conversation(id: "c-1"), body: "Saturday?", state: .queued, attempts: 0,
            createdAt: Self.epoch)
        let content = MessagesContent(
            conversation: conversation, messages: [mine, theirs], pending: [queued], hasOlder: false)
        let lines = MessagesRenderer(me: "u-bob").lines(for: content).map(\.description)
        #expect(lines[0] == "Chat with Ada Lovelace (@ada) about Road bike")
        #expect(lines.contains("08:00  You: Still there?"))
        #expect(lines.contains("08:00  Ada Lovelace: Yes!"))
        #expect(lines.contains("08:00  You: Saturday? (queued)"))
    }

    @Test("unread notifications are marked and counted")
    func notifications() {
        let unread = BazaarAPI.Notification(
            id: "n-1", type: NotificationType.newMessage, read: false, createdAt: Self.epoch, conversationId: "c-1",
            messageId: "m-1")
        var read = unread
        read.id = "n-2"
        read.read = true
        let lines = NotificationsRenderer().lines(
            for: NotificationListContent(
                items: [
                    NotificationItem(notification: unread, from: Self.ada, excerpt: "Is it still there?"),
                    NotificationItem(notification: read),
                ],
                hasMore: false), width: nil
        )
        .map(\.description)
        #expect(lines[1].hasPrefix("●"))
        #expect(lines[1].contains("Ada Lovelace sent you a message: “Is it still there?”"), "\(lines)")
        #expect(!lines[1].contains("c-1"), "no conversation id in words for a person")
        #expect(!lines[2].hasPrefix("●"))
        #expect(lines.last == "1 unread")
    }

    @Test("a profile shows the optional fields only when set")
    func profile() {
        let withBio = ProfileRenderer().lines(for: ProfileContent(user: Self.bob), width: nil).map(\.description)
        let without = ProfileRenderer().lines(for: ProfileContent(user: Self.ada), width: nil).map(\.description)
        #expect(withBio.contains { $0.hasPrefix("Bio") && $0.hasSuffix("Bikes") })
        #expect(!without.contains { $0.hasPrefix("Bio") })
        #expect(!without.contains { $0.hasPrefix("Photo") })
    }
}

@Suite("App input and exit codes")
struct AppInputTests {
    @Test("images are told by their first bytes, not their names")
    func imageSniffing() {
        #expect(ImageFile.mediaType(of: Data([0xFF, 0xD8, 0xFF, 0xE0])) == .jpeg)
        #expect(ImageFile.mediaType(of: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) == .png)
        #expect(ImageFile.mediaType(of: Data("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFile.mediaType(of: Data("GIF89a".utf8)) == nil)
    }

    @Test("every kind of failure has its own exit code")
    func exitCodesAreDistinct() {
        let kinds: [ScreenError.Kind] = [.offline, .notFound, .signedOut, .invalidInput, .throttled, .other]
        let codes = kinds.map { AppError(ScreenError(kind: $0, message: "x")).exitCode.rawValue }
        #expect(Set(codes).count == kinds.count)
        #expect(codes == [69, 66, 77, 65, 75, 1])
        #expect(AppError(.usage, "x").exitCode.rawValue == 64)
    }
}
